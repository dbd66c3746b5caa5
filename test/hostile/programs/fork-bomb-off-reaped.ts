// about: with the sandbox off, 20 sleeping children are spawned and the program returns: all are killed with the run
// expect: success
// value: "spawned"
// options: {"sandbox": "off"}
const cp = await import('node:child_process');
for (let i = 0; i < 20; i++) cp.spawn('sleep', ['30'], { stdio: 'ignore' });
return 'spawned';
