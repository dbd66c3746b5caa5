// about: CONTROL: with the sandbox off, /proc/self/mem opens for writing
// expect: success
// must: kernel-granted
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.closeSync(fs.openSync('/proc/self/mem', 'r+'));
return 'opened for writing ' + '{{TOKEN}}'.toUpperCase();
