// Contender: a fresh worker_threads Worker per run (in-process, no isolation from the host's memory or crashes).
import { MessageChannel, Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./worker-child.mjs', import.meta.url));

export function workerContender() {
  return {
    id: 'worker',
    label: 'worker_threads Worker per run (MessagePort bridge)',
    family: 'in-process',
    dialect: 'js',
    floor: 'node',
    async init() {
      return { ok: true };
    },
    async run(workload, bindings) {
      const started = performance.now();
      const { port1, port2 } = new MessageChannel();
      const names = Object.keys(bindings);
      const worker = new Worker(SCRIPT, {
        workerData: { port: port2, program: workload.program('js'), names },
        transferList: [port2],
        stdout: true,
        stderr: true,
      });
      let logChars = 0;
      const done = new Promise((resolve) => {
        port1.on('message', (message) => {
          if (message.type === 'call') {
            const fn = bindings[message.name];
            Promise.resolve(fn(message.args)).then(
              (value) => port1.postMessage({ id: message.id, ok: true, value }),
              (error) => port1.postMessage({ id: message.id, ok: false, message: String(error?.message ?? error) }),
            );
          } else if (message.type === 'log') {
            logChars += message.text.length;
          } else if (message.type === 'done') {
            resolve(message);
          }
        });
        worker.once('error', (error) => resolve({ ok: false, message: String(error) }));
        worker.once('exit', (code) => resolve({ ok: false, message: `worker exited with ${code}` }));
      });
      const outcome = await done;
      const resultAt = performance.now();
      await worker.terminate();
      port1.close();
      return {
        wallMs: performance.now() - started,
        resultMs: resultAt - started,
        ok: outcome.ok,
        value: outcome.value,
        error: outcome.message,
        logChars,
      };
    },
    async dispose() {},
  };
}
