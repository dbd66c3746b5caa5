// about: CONTROL: with the sandbox off, the write outside lands
// expect: success
// must: file-created
// options: {"sandbox": "off"}
const fs = await import('node:fs');
fs.writeFileSync('{{OUTSIDE_DIR}}/written', 'x');
return 'written';
