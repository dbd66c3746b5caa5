// about: CONTROL: with the sandbox off, another host process's environment is readable through /proc
// expect: success
// must: secret-leaked
// options: {"sandbox": "off"}
const fs = await import('node:fs');
return fs.readFileSync('/proc/{{VICTIM_PID}}/environ', 'latin1');
