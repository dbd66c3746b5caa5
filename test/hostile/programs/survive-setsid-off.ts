// about: with the sandbox off, a detached grandchild (setsid, in /, ignoring SIGTERM/SIGHUP/SIGINT) still dies with the run (it would write outside from 0.4 s after the program returns)
// expect: success
// must-not: file-created
// options: {"sandbox": "off"}
const cp = await import('node:child_process');
const grandchild = `for (const s of ['SIGTERM', 'SIGHUP', 'SIGINT']) process.on(s, () => {});
let i = 0;
setTimeout(() => setInterval(() => { require('fs').writeFileSync('{{OUTSIDE_DIR}}/survivor-' + i++, 'still here'); if (i > 50) process.exit(0); }, 100), 400);`;
const child = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore', cwd: '/' }).unref();`;
cp.spawn(process.execPath, ['-e', child], { detached: true, stdio: 'ignore', cwd: '/' }).unref();
await new Promise((r) => setTimeout(r, 200));
return 'daemonized';
