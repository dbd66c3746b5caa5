// Body of the in-process contender: one fresh worker_threads Worker per run, bindings bridged over a MessagePort.
import { workerData } from 'node:worker_threads';

const { port, program, names } = workerData;
const pending = new Map();
let nextId = 1;

port.on('message', (message) => {
  const settle = pending.get(message.id);
  if (settle === undefined) return;
  pending.delete(message.id);
  settle(message);
});

// the same shape the PTC child gives a program: a null-prototype namespace of async functions
const tools = Object.create(null);
for (const name of names) {
  tools[name] = (args = null) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, (reply) => (reply.ok ? resolve(reply.value) : reject(new Error(reply.message))));
      port.postMessage({ type: 'call', id, name, args });
    });
}

// stream writes are line-buffered in the worker (fragments sealed in blocks, so a 25 MB drip stays linear) and
// posted per completed line, like the PTC child's log frames
let fragments = [];
let blocks = [];
const flush = () => {
  if (fragments.length === 0 && blocks.length === 0) return;
  port.postMessage({ type: 'log', text: blocks.join('') + fragments.join('') });
  fragments = [];
  blocks = [];
};
const write = (text) => {
  let start = 0;
  let nl = text.indexOf('\n');
  while (nl >= 0) {
    fragments.push(text.slice(start, nl));
    flush();
    start = nl + 1;
    nl = text.indexOf('\n', start);
  }
  if (start < text.length) {
    fragments.push(start === 0 ? text : text.slice(start));
    if (fragments.length >= 1024) {
      blocks.push(fragments.join(''));
      fragments = [];
      if (blocks.length >= 1024) blocks = [blocks.join('')];
    }
  }
};
const log = (...args) => {
  flush();
  port.postMessage({ type: 'log', text: args.map(String).join(' ') });
};

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor;
try {
  const fn = new AsyncFunction('tools', 'write', 'console', program);
  const value = await fn(tools, write, { log });
  flush();
  port.postMessage({ type: 'done', ok: true, value });
} catch (error) {
  flush();
  port.postMessage({ type: 'done', ok: false, message: String(error?.stack ?? error) });
}
