// about: starts worker threads in a loop (workers are denied)
// expect: exception
// message: denied|restricted|permission
const { Worker } = await import('node:worker_threads');
for (let i = 0; i < 64; i++) new Worker('while (true) {}', { eval: true });
return 'started';
