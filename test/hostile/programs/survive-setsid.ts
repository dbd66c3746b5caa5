// about: a detached (setsid) Node child that spawns a detached grandchild in / ignoring SIGTERM/SIGHUP/SIGINT, which writes outside from 0.4 s after the program returns
// expect: success|exception
// must-not: file-created
const cp = await import('node:child_process');
const grandchild = `for (const s of ['SIGTERM', 'SIGHUP', 'SIGINT']) process.on(s, () => {});
let i = 0;
setTimeout(() => setInterval(() => { try { require('fs').writeFileSync('{{OUTSIDE_DIR}}/survivor-' + i++, 'still here'); } catch {} if (i > 50) process.exit(0); }, 100), 400);`;
const child = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore', cwd: '/' }).unref();`;
try {
  cp.spawn(process.execPath, ['-e', child], { detached: true, stdio: 'ignore', cwd: '/' }).unref();
  await new Promise((r) => setTimeout(r, 200));
  return 'daemonized';
} catch (e) {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}
