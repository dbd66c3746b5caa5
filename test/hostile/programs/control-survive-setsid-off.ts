// about: CONTROL: with the sandbox off, a detached grandchild in / acts on the host while the program still runs (what the sandboxed attempt would do)
// expect: success
// must: file-created
// options: {"sandbox": "off", "timeoutMs": 60000}
const cp = await import('node:child_process');
const grandchild = `process.on('SIGTERM', () => {}); require('fs').writeFileSync('{{OUTSIDE_DIR}}/grandchild', 'here');`;
const child = `require('child_process').spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore', cwd: '/' }).unref();`;
cp.spawn(process.execPath, ['-e', child], { detached: true, stdio: 'ignore', cwd: '/' }).unref();
// until the grandchild has written (two Node start-ups: seconds on a loaded machine), so the effect is there when the
// run ends and the suite looks
const fs = await import('node:fs');
for (let waited = 0; waited < 30_000 && !fs.existsSync('{{OUTSIDE_DIR}}/grandchild'); waited += 100)
  await new Promise((r) => setTimeout(r, 100));
return 'daemonized';
