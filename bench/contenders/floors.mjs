// Floors: what a bare process and a bare inherited-socketpair round trip cost on this machine, in the same run.
import { spawn } from 'node:child_process';

function timeProcess(argv) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'ignore', env: {} });
    child.once('error', (error) => resolve({ wallMs: performance.now() - started, ok: false, error: error.message }));
    child.once('close', (code) =>
      resolve({
        wallMs: performance.now() - started,
        ok: code === 0,
        value: 1,
        error: code === 0 ? undefined : `exit ${code}`,
      }),
    );
  });
}

// The bare wrapper: bubblewrap with fresh namespaces around `true`, the least a sandboxed start can cost.
const BWRAP_FLOOR = [
  '/usr/bin/bwrap',
  '--unshare-ipc',
  '--unshare-pid',
  '--unshare-net',
  '--unshare-uts',
  '--ro-bind',
  '/',
  '/',
  '--die-with-parent',
  '/bin/true',
];

export function processFloor(kind, pythonPath) {
  const argv =
    kind === 'node' ? [process.execPath, '-e', '0'] : kind === 'bwrap' ? BWRAP_FLOOR : [pythonPath, '-I', '-c', 'pass'];
  const labels = {
    node: 'floor: bare `node -e 0`',
    python: 'floor: bare `python3 -I -c pass`',
    bwrap: 'floor: bare `bwrap … true`',
  };
  return {
    id: `floor-${kind}`,
    label: labels[kind],
    family: 'floor',
    floor: kind,
    workloads: ['trivial'],
    async init() {
      const probe = await timeProcess(argv);
      return probe.ok ? { ok: true } : { ok: false, note: `${argv[0]} unavailable: ${probe.error}` };
    },
    run: () => timeProcess(argv),
    async dispose() {},
  };
}

// The child calls, the host answers: JSON lines over an inherited socketpair (fd 3), the child's loop as bare as it
// gets.
const NODE_CALLER = `
const net = require('node:net');
const n = Number(process.argv[1]);
const s = new net.Socket({ fd: 3, readable: true, writable: true });
let buf = '', i = 0, waiting = null;
s.on('data', (d) => { buf += d; let k; while ((k = buf.indexOf('\\n')) >= 0) { const line = buf.slice(0, k); buf = buf.slice(k + 1); JSON.parse(line); waiting(); } });
(async () => {
  for (; i < n; i++) { await new Promise((r) => { waiting = r; s.write(JSON.stringify({ type: 'call', id: i + 1, args: { i } }) + '\\n'); }); }
  s.end(); process.exit(0);
})();`;

const PYTHON_CALLER = `
import json, socket, sys
n = int(sys.argv[1])
s = socket.socket(fileno=3)
buf = b''
for i in range(n):
    s.sendall((json.dumps({"type": "call", "id": i + 1, "args": {"i": i}}) + "\\n").encode())
    while b"\\n" not in buf:
        buf += s.recv(65536)
    line, _, buf = buf.partition(b"\\n")
    json.loads(line)
`;

export function socketpairFloor(kind, pythonPath) {
  const calls = 1000;
  const argv =
    kind === 'node'
      ? [process.execPath, '-e', NODE_CALLER, String(calls)]
      : [pythonPath, '-I', '-c', PYTHON_CALLER, String(calls)];
  const run = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const stamps = [];
      const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], env: {} });
      const sock = child.stdio[3];
      let buf = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      sock.on('data', (d) => {
        buf += d;
        let k;
        while ((k = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, k);
          buf = buf.slice(k + 1);
          stamps.push(performance.now());
          const call = JSON.parse(line);
          sock.write(`${JSON.stringify({ type: 'reply', id: call.id, ok: true, value: call.args })}\n`);
        }
      });
      sock.on('error', () => undefined);
      child.once('close', (code) =>
        resolve({
          wallMs: performance.now() - started,
          ok: code === 0 && stamps.length === calls,
          value: 1,
          calls: stamps.length,
          stamps,
          error: code === 0 ? undefined : `exit ${code}: ${stderr.slice(0, 200)}`,
        }),
      );
    });
  return {
    id: `floor-socketpair-${kind}`,
    label: `floor: JSON-lines round trip over an inherited socketpair (${kind === 'node' ? 'Node' : 'Python'} child)`,
    family: 'floor',
    floor: kind,
    workloads: ['seq-calls'],
    async init() {
      const probe = await run();
      return probe.ok ? { ok: true } : { ok: false, note: `socketpair floor unavailable: ${probe.error}` };
    },
    run,
    async dispose() {},
  };
}
