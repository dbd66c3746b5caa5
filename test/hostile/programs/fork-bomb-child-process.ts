// about: spawns child processes in a loop (child processes are denied)
// expect: exception
// message: denied|restricted|permission
const cp = await import('node:child_process');
for (let i = 0; i < 100; i++) cp.spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
return 'spawned';
