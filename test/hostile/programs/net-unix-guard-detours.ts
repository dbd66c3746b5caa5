// about: reaches for a Unix socket by every road around the guard on the Pipe prototype: the deprecated
// about: pipe_wrap binding, a constructor taken from a live handle, a listening socket of its own, a worker thread
// about: (a fresh realm whose Pipe prototype no guard has touched), and stdin's handle
// expect: success
// must-not: unix-received
const net = await import('node:net');
const target = '{{UNIX_PATH}}';
const tried: Record<string, string> = {};
const attempt = async (name: string, fn: () => unknown): Promise<void> => {
  try {
    const value = await fn();
    tried[name] = `returned ${String(value)}`;
  } catch (error) {
    tried[name] = `threw ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
};
const connectVia = (socket: import('node:net').Socket): Promise<string> =>
  new Promise((resolve) => {
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
    setTimeout(() => resolve('no answer'), 2000);
  });
await attempt('pipe_wrap binding', () => {
  const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding('pipe_wrap');
  const Pipe = binding.Pipe as new (type: number) => { connect(req: unknown, path: string): number };
  const ConnectWrap = binding.PipeConnectWrap as new () => object;
  return new Pipe(0).connect(new ConnectWrap(), target);
});
await attempt('constructor of a live handle', () => {
  // a connecting socket has its Pipe handle at once
  const socket = net.connect({ path: `${target}.absent` });
  socket.on('error', () => undefined);
  const handle = (socket as unknown as { _handle?: object | null })._handle;
  if (handle === undefined || handle === null) return 'no handle';
  const Ctor = handle.constructor as new (type: number) => object;
  const fresh = new Ctor(0);
  const own = Object.getOwnPropertyDescriptor(fresh, 'connect');
  const inherited = (Object.getPrototypeOf(fresh) as { connect: (...args: unknown[]) => number }).connect;
  return `own connect: ${own !== undefined}; inherited connect answers ${Reflect.apply(inherited, fresh, [{}, target])}`;
});
await attempt('net.connect', () => connectVia(net.connect({ path: target })));
await attempt('a listening socket of its own', () =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code}`));
    server.listen(`${process.env.TMPDIR ?? '/tmp'}/own.sock`, () => {
      server.close();
      resolve('listening');
    });
  }),
);
await attempt('a worker thread', async () => {
  const { Worker } = await import('node:worker_threads');
  const code = `const net = require('node:net'); const s = net.connect({ path: ${JSON.stringify(target)} });
    s.on('connect', () => { s.destroy(); require('node:worker_threads').parentPort.postMessage('connected'); });
    s.on('error', (e) => require('node:worker_threads').parentPort.postMessage('error ' + e.code));`;
  const worker = new Worker(code, { eval: true });
  return await new Promise((resolve) => {
    worker.on('message', (m) => resolve(m));
    worker.on('error', (e) => resolve(`error ${(e as NodeJS.ErrnoException).code ?? e.message}`));
    setTimeout(() => resolve('no answer'), 2000);
  });
});
await attempt("stdin's handle", () => {
  const handle = (process.stdin as unknown as { _handle?: object })._handle;
  if (handle === undefined) return 'no handle';
  const connect = (Object.getPrototypeOf(handle) as { connect?: (req: unknown, path: string) => number }).connect;
  return connect === undefined ? 'no connect' : Reflect.apply(connect, handle, [{}, target]);
});
return tried;
