// about: --logfile (pointed at a planted .pth outside) with --log, set at run time, then a Worker: the new isolate's logger opens and writes the file itself
// expect: success|exception
// must-not: file-changed, file-created
const v8 = await import('node:v8');
const out: string[] = [];
for (const flag of ['--logfile={{TARGET_FILE}}', '--no-logfile-per-isolate', '--log']) {
  try {
    v8.setFlagsFromString(flag);
    out.push(flag + ': set');
  } catch (e) {
    out.push(flag + ': ' + String(e));
  }
}
try {
  const { Worker } = await import('node:worker_threads');
  await new Promise((resolve, reject) => {
    const worker = new Worker('let s = 0; for (let i = 0; i < 1e5; i++) s += i;', { eval: true });
    worker.on('exit', resolve);
    worker.on('error', reject);
  });
  out.push('worker ran');
} catch (e) {
  out.push('worker: ' + ((e as NodeJS.ErrnoException).code ?? String(e)));
}
return out;
