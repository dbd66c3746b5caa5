// about: CONTROL: with the sandbox off, the secret planted in the workspace is readable
// expect: success
// must: secret-leaked
// options: {"sandbox": "off"}
const fs = await import('node:fs');
return fs.readFileSync('{{WORKSPACE_SECRET}}', 'utf8');
