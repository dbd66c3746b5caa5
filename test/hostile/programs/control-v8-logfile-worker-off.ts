// about: CONTROL: with the sandbox off, --logfile set at run time makes a new Worker's isolate write V8's log into the planted .pth
// expect: success
// must: file-changed
// options: {"sandbox": "off"}
const v8 = await import('node:v8');
for (const flag of ['--logfile={{TARGET_FILE}}', '--no-logfile-per-isolate', '--log']) v8.setFlagsFromString(flag);
const { Worker } = await import('node:worker_threads');
await new Promise((resolve, reject) => {
  const worker = new Worker('let s = 0; for (let i = 0; i < 1e5; i++) s += i;', { eval: true });
  worker.on('exit', resolve);
  worker.on('error', reject);
});
return 'worker ran';
