// about: endless console.log lines
// expect: output-limit
// logs: ^line 0 \.{200}$
const pad = '.'.repeat(200);
for (let i = 0; ; i++) console.log('line', i, pad);
