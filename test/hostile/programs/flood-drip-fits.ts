// about: 100 000 one-character writes then a newline fit in one entry
// expect: success
// value: "ok"
// logs: ^x{100000}$
for (let i = 0; i < 100_000; i++) process.stdout.write('x');
process.stdout.write('\n');
return 'ok';
