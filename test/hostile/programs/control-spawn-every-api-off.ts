// about: CONTROL: with the sandbox off, spawnSync of Node itself runs a new process that prints the token
// expect: success
// must: kernel-granted
// options: {"sandbox": "off"}
const cp = await import('node:child_process');
return String(cp.spawnSync(process.execPath, ['-e', "process.stdout.write('{{TOKEN}}'.toUpperCase())"]).stdout);
