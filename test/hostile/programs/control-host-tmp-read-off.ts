// about: CONTROL: with the sandbox off, the secret planted in the host's /tmp is readable
// expect: success
// must: secret-leaked
// options: {"sandbox": "off"}
const fs = await import('node:fs');
return fs.readFileSync('{{HOST_TMP_SECRET}}', 'utf8');
