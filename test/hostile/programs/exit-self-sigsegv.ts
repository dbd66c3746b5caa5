// about: sends itself SIGSEGV
// expect: worker-exit
process.kill(process.pid, 'SIGSEGV');
await new Promise(() => {});
