// about: with the sandbox off, a detached setsid grandchild that would write a file later is killed with the run
// expect: success
// value: "left behind"
// must-not: file-created
// options: {"sandbox": "off"}
const cp = await import('node:child_process');
const child = cp.spawn('setsid', ['sh', '-c', 'sleep 1; echo late > {{OUTSIDE_DIR}}/late-write'], { detached: true, stdio: 'ignore' });
child.unref();
await new Promise((r) => setTimeout(r, 100));
return 'left behind';
