// about: CONTROL: with the sandbox off, the secret file and the host environ are readable
// expect: success
// must: secret-leaked
// options: {"sandbox": "off"}
const fs = await import('node:fs');
return [fs.readFileSync('{{SECRET_FILE}}', 'utf8'), fs.readFileSync('/proc/{{HOST_PID}}/environ', 'utf8').split('\0').filter((l) => l.startsWith('HOME='))];
