// about: two million one-character writes
// expect: output-limit
for (let i = 0; i < 2_000_000; i++) process.stdout.write('x');
return 'done';
