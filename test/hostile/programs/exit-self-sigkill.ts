// about: sends itself SIGKILL
// expect: worker-exit
// message: SIGKILL|9
process.kill(process.pid, 'SIGKILL');
await new Promise(() => {});
