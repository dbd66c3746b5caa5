// about: CONTROL: with the sandbox off, a detached grandchild in / acts on the host while the program still runs (what the sandboxed attempt would do)
// expect: success
// must: file-created
// options: {"sandbox": "off"}
const cp = await import('node:child_process');
const grandchild = `process.on('SIGTERM', () => {}); require('fs').writeFileSync('{{OUTSIDE_DIR}}/grandchild', 'here');`;
const child = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore', cwd: '/' }).unref();`;
cp.spawn(process.execPath, ['-e', child], { detached: true, stdio: 'ignore', cwd: '/' }).unref();
await new Promise((r) => setTimeout(r, 1000));
return 'daemonized';
