// about: closes its own stdout and stderr, then logs and returns
// expect: success
// value: 1
const fs = await import('node:fs');
fs.closeSync(1);
fs.closeSync(2);
console.log('still here');
return 1;
