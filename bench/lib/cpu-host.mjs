// CPU per fresh run across the whole process tree (issue 31), run as its own host process inside a cgroup of its own
// (cgroup v1 cpuacct), whose counter charges every process it starts — wrappers, sandbox, interpreter, and the
// processes already reaped. Each sample is the counter's growth across one operation: a floor process from spawn to
// exit, or one trivial run from `run()` until its child's teardown ended and the replacement spare it started is ready
// (with a spare: the host's work for the run, one spare's whole life; cold: the host's work and one cold child).
// Interleaved (floors and runs alternate), so every ratio compares samples taken seconds apart.
// Usage: node bench/lib/cpu-host.mjs <runtime.mjs> <pythonPath|-> <rounds>
import { spawn } from 'node:child_process';
import diagnostics_channel from 'node:diagnostics_channel';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { summarize, round, sleep } from './stats.mjs';

const [runtimePath, pythonArg, roundsText] = process.argv.slice(2);
const pythonPath = pythonArg === '-' ? undefined : pythonArg;
const rounds = Number(roundsText);
const CPUACCT = '/sys/fs/cgroup/cpuacct';

function enterCgroup() {
  if (!fs.existsSync(path.join(CPUACCT, 'cpuacct.usage'))) return { problem: 'no cgroup v1 cpuacct hierarchy here' };
  const dir = path.join(CPUACCT, `ptc-bench-cpu-${process.pid}`);
  try {
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
  } catch (error) {
    return { problem: `cannot make a cpuacct cgroup (${error.code ?? error.message}): run as root` };
  }
  return {
    usageMs: () => Number(fs.readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e6,
    leave: () => {
      fs.writeFileSync(path.join(CPUACCT, 'cgroup.procs'), String(process.pid));
      fs.rmdirSync(dir);
    },
  };
}

const floorArgv = {
  node: [process.execPath, '-e', '0'],
  python: pythonPath === undefined ? undefined : [pythonPath, '-I', '-c', 'pass'],
};
const exited = (argv) =>
  new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: 'ignore', env: {} });
    child.once('error', () => resolve(false));
    child.once('close', (code) => resolve(code === 0));
  });

const out = {};
const cg = enterCgroup();
if (cg.problem !== undefined) {
  process.stdout.write(`${JSON.stringify({ problem: cg.problem })}\n`);
  process.exit(0);
}
try {
  const { createRuntime } = await import(pathToFileURL(runtimePath).href);
  const discarded = new Set();
  diagnostics_channel.subscribe('ptc-playground:run-phase', (mark) => {
    if (mark.phase === 'discarded') discarded.add(mark.run);
  });
  const languages = pythonPath === undefined ? ['typescript'] : ['typescript', 'python'];
  const contenders = [];
  // the WebAssembly engines too (issue 26: quickjs ≤ 10 ms, pyodide ≤ 150 ms), each in its child under the sandbox
  const engines = [
    ...languages.map((language) => ({ language, engine: 'native', prefix: language })),
    { language: 'typescript', engine: 'wasm', prefix: 'quickjs' },
    { language: 'python', engine: 'wasm', prefix: 'pyodide' },
  ];
  for (const { language, engine, prefix } of engines)
    for (const spares of [1, 0]) {
      const id = `${prefix}-${spares ? 'spare' : 'cold'}`;
      const runtime = createRuntime({ spares, ...(pythonPath ? { pythonPath } : {}) });
      const request = { language, program: 'return 1', sandbox: 'best-effort', engine };
      const probe = await runtime.run(runtime.resolve(request));
      if (probe.error !== undefined || probe.sandbox.enforcement === 'none') {
        out[id] = { problem: probe.error?.message ?? 'no sandbox here' };
        await runtime.dispose();
        continue;
      }
      contenders.push({ id, runtime, request, spares });
    }
  const operations = [
    ...Object.entries(floorArgv)
      .filter(([, argv]) => argv !== undefined)
      .map(([id, argv]) => ({ id: `floor-${id}`, once: () => exited(argv) })),
    ...contenders.map((c) => ({
      id: c.id,
      once: async () => {
        const spec = c.runtime.resolve(c.request);
        const before = discarded.size;
        const result = await c.runtime.run(spec);
        // the teardown ends and (with a spare) the replacement it started is ready: all of the run's work is in
        if (c.spares > 0) await c.runtime.warm(c.runtime.resolve(c.request));
        for (let waited = 0; discarded.size === before && waited < 10_000; waited += 5) await sleep(5);
        return result.error === undefined;
      },
    })),
  ];
  // not timed: module caches, JIT, the spares' steady state
  for (const op of operations) for (let i = 0; i < 3; i++) await op.once();
  const samples = Object.fromEntries(operations.map((op) => [op.id, []]));
  for (let pass = 0; pass < rounds; pass++) {
    for (const op of pass % 2 === 0 ? operations : [...operations].reverse()) {
      await sleep(30);
      const before = cg.usageMs();
      const ok = await op.once();
      const used = cg.usageMs() - before;
      if (ok) samples[op.id].push(used);
    }
  }
  for (const [id, values] of Object.entries(samples)) {
    if (values.length === 0) continue;
    const s = summarize(values);
    out[id] = { n: s.n, p50: round(s.p50, 1), p95: round(s.p95, 1), min: round(s.min, 1) };
  }
  for (const c of contenders) await c.runtime.dispose();
} catch (error) {
  out.problem = String(error?.message ?? error);
} finally {
  cg.leave();
}
out.loadAvg = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
process.stdout.write(`${JSON.stringify(out)}\n`);
process.exit(0);
