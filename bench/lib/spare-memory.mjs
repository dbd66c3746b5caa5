// Memory per ready spare (issue 26): what one spare costs the machine while it waits for a run, per engine, the
// WebAssembly ones (quickjs, pyodide) next to the native ones (node, cpython). Each engine gets a runtime of its own
// with one spare; after a first run (the engine's proof and the OS probe are done) and once a fresh spare says ready,
// the spare's whole process tree (sandbox wrapper, engine child) is read from /proc: RSS, and PSS (shared pages
// divided among the processes sharing them, so a library mapped by the host too is not counted in full).
// Its own host process (the bench's contenders keep spares of their own): `node bench/lib/spare-memory.mjs
// [<runtime.mjs> <pythonPath|->] [--quick]`; without a bundle it builds dist/bench/runtime.mjs first.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { round, sleep, summarize } from './stats.mjs';

const ENGINES = [
  { id: 'node', language: 'typescript', engine: 'native', label: 'TypeScript, node (native)' },
  { id: 'quickjs', language: 'typescript', engine: 'wasm', label: 'TypeScript, quickjs (WebAssembly)' },
  { id: 'cpython', language: 'python', engine: 'native', label: 'Python, cpython (native)' },
  { id: 'pyodide', language: 'python', engine: 'wasm', label: 'Python, pyodide (WebAssembly)' },
];

function kb(text, field) {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match === null ? 0 : Number(match[1]);
}

// Every live process below this one, with its RSS and PSS in kB.
function tree() {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const below = [];
  const stack = [process.pid];
  while (stack.length > 0) {
    const parent = stack.pop();
    for (const [pid, ppid] of parents)
      if (ppid === parent) {
        below.push(pid);
        stack.push(pid);
      }
  }
  const out = [];
  for (const pid of below) {
    try {
      const rss = kb(fs.readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      const pss = kb(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
      out.push({ pid, rss, pss });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

// Waits until the tree stops changing (the first run's child torn down, the spare started), up to `ms`.
async function settledTree(ms) {
  const deadline = Date.now() + ms;
  let last = '';
  let steady = 0;
  for (;;) {
    const now = tree();
    const shape = now.map((p) => p.pid).join(',');
    steady = shape === last ? steady + 1 : 0;
    last = shape;
    if (steady >= 3 || Date.now() > deadline) return now;
    await sleep(150);
  }
}

export async function measureSpareMemory({ runtimeModule, pythonPath, quick = false, log = () => undefined }) {
  if (!fs.existsSync('/proc/self/smaps_rollup')) return { problem: 'needs Linux /proc (smaps_rollup)' };
  const samples = quick ? 2 : 5;
  const rows = [];
  for (const spec of ENGINES) {
    if (spec.language === 'python' && pythonPath === undefined && spec.engine === 'native') {
      rows.push({ ...spec, error: 'no python3 here' });
      continue;
    }
    const runtime = runtimeModule.createRuntime({ spares: 1, ...(pythonPath ? { pythonPath } : {}) });
    // the same request for the runs and the spares (a spare serves only the configuration it was started for)
    const request = {
      language: spec.language,
      program: 'return 1',
      sandbox: 'best-effort',
      engine: spec.engine,
      timeoutMs: 120_000,
    };
    try {
      const first = await runtime.run(runtime.resolve(request));
      if (first.error !== undefined || first.value !== 1)
        throw new Error(first.error?.message ?? `returned ${JSON.stringify(first.value)}`);
      const rss = [];
      const pss = [];
      let processes = 0;
      for (let i = 0; i < samples; i++) {
        // each sample a fresh spare: the one before served a run
        if (i > 0) await runtime.run(runtime.resolve(request));
        if (!(await runtime.warm(runtime.resolve(request)))) throw new Error('no spare became ready');
        const procs = await settledTree(10_000);
        processes = procs.length;
        rss.push(procs.reduce((n, p) => n + p.rss, 0) / 1024);
        pss.push(procs.reduce((n, p) => n + p.pss, 0) / 1024);
      }
      const row = {
        ...spec,
        sandbox: first.sandbox.mechanisms[0],
        processes,
        rssMb: round(summarize(rss).p50, 1),
        pssMb: round(summarize(pss).p50, 1),
        n: samples,
      };
      rows.push(row);
      log(
        `  ${spec.label.padEnd(36)} RSS ${row.rssMb} MB, PSS ${row.pssMb} MB (${processes} processes, p50 of ${samples})`,
      );
    } catch (error) {
      rows.push({ ...spec, error: String(error?.message ?? error).slice(0, 200) });
      log(`  ${spec.label.padEnd(36)} failed: ${rows.at(-1).error}`);
    } finally {
      await runtime.dispose();
    }
  }
  return { rows };
}

// Run as a process: prints the rows as JSON on stdout (progress on stderr).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [bundle, pythonArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  const { buildRuntimeBundle } = await import('./build-harness.mjs');
  const runtimeModule = await import(pathToFileURL(bundle ?? (await buildRuntimeBundle(repo))).href);
  const python =
    pythonArg === undefined
      ? ['/usr/bin/python3', '/usr/local/bin/python3'].find((p) => fs.existsSync(p))
      : pythonArg === '-'
        ? undefined
        : pythonArg;
  const log = (line) => process.stderr.write(`${line}\n`);
  log('memory per ready spare: one spare per engine, its whole process tree, p50');
  const result = await measureSpareMemory({
    runtimeModule,
    pythonPath: python,
    quick: process.argv.includes('--quick'),
    log,
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}
