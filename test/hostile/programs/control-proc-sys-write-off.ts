// about: CONTROL: with the sandbox off, root writes kernel.core_pattern through /proc/sys (the value it already has)
// expect: success
// must: kernel-granted
// requires: root
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.writeFileSync('/proc/sys/kernel/core_pattern', fs.readFileSync('/proc/sys/kernel/core_pattern'));
return 'written ' + '{{TOKEN}}'.toUpperCase();
