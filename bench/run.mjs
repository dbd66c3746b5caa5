// `npm run bench [-- --quick] [--skip-install] [--skip-rss] [--skip-host] [--skip-render] [--skip-activation]
// [--skip-cost] [--only=workload,…]` The cost of one run alone (phase rows, CPU per fresh run): `npm run bench --
// --only=none --skip-rss --skip-host --skip-render --skip-activation --skip-install`. One section alone: `node
// bench/lib/activation.mjs [--quick]` (extension bundle size and activation time). Every workload runs through every
// contender in this one process, interleaved (A B C A B C …), so each figure is compared with floors measured minutes
// apart at most, on the same machine under the same load.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildRuntimeBundle } from './lib/build-harness.mjs';
import { workloads, cpuKernelJs } from './lib/workloads.mjs';
import { summarize, round, sleep } from './lib/stats.mjs';
import { evaluateTargets } from './lib/targets.mjs';
import { writeReport } from './lib/report.mjs';
import { readHistory, recordRuns, spareStability } from './lib/history.mjs';
import { processFloor, socketpairFloor } from './contenders/floors.mjs';
import { ptcContender, ptcHostContender } from './contenders/ptc.mjs';
import { workerContender } from './contenders/worker.mjs';
import { quickjsContender } from './contenders/quickjs.mjs';
import { isolatedVmContender, ensureIsolatedVm } from './contenders/isolated-vm.mjs';
import { measureHostBounds } from './lib/host-bounds.mjs';
import { measureTestSuite } from './lib/test-suite.mjs';
import { measureActivation } from './lib/activation.mjs';
import { measurePhases } from './lib/phases.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const skipInstall = args.includes('--skip-install');
const skipRss = args.includes('--skip-rss');
const skipHost = args.includes('--skip-host');
const skipRender = args.includes('--skip-render');
const skipActivation = args.includes('--skip-activation');
const skipCost = args.includes('--skip-cost');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const level = quick ? 1 : 0;
const log = (line) => process.stderr.write(`${line}\n`);
const benchStarted = Date.now();

// ---- set-up -------------------------------------------------------------------------------------------------------
const runtimePath = await buildRuntimeBundle(repo);
const runtimeModule = await import(pathToFileURL(runtimePath).href);
const pythonPath = resolvePython();
const cpu = calibrateCpu(pythonPath);
log(
  `cpu kernel: ${cpu.cpuStepsJs.toLocaleString('en')} JS steps, ${cpu.cpuStepsPy?.toLocaleString('en') ?? '–'} Python steps ≈ 200 ms each`,
);
const allWorkloads = workloads({ cpuStepsJs: cpu.cpuStepsJs, cpuStepsPy: cpu.cpuStepsPy ?? 1 }).filter(
  (w) => only === undefined || only.includes(w.id),
);

if (!skipInstall) ensureIsolatedVm({ install: true, log });

const contenders = [
  processFloor('node'),
  ...(pythonPath ? [processFloor('python', pythonPath)] : []),
  processFloor('bwrap'),
  socketpairFloor('node'),
  ...(pythonPath ? [socketpairFloor('python', pythonPath)] : []),
  ptcContender(runtimeModule, { language: 'typescript', sandbox: true, spare: true }),
  ptcContender(runtimeModule, { language: 'typescript', sandbox: true, spare: false }),
  ptcContender(runtimeModule, { language: 'typescript', sandbox: false, spare: true }),
  ptcContender(runtimeModule, { language: 'typescript', sandbox: false, spare: false }),
  // the WebAssembly engine (issue 26 targets: spare-ready trivial run p50 ≤ 5 ms, CPU per fresh run ≤ 10 ms)
  ptcContender(runtimeModule, { language: 'typescript', sandbox: true, spare: true, engine: 'wasm' }),
  ptcContender(runtimeModule, { language: 'typescript', sandbox: true, spare: false, engine: 'wasm' }),
  // the pyodide engine (issue 26 targets: spare-ready trivial run p50 ≤ 15 ms, CPU per fresh run ≤ 150 ms)
  ptcContender(runtimeModule, { language: 'python', sandbox: true, spare: true, engine: 'wasm' }),
  ptcContender(runtimeModule, { language: 'python', sandbox: true, spare: false, engine: 'wasm' }),
  ptcContender(runtimeModule, { language: 'python', sandbox: true, spare: true, pythonPath }),
  ptcContender(runtimeModule, { language: 'python', sandbox: true, spare: false, pythonPath }),
  ptcHostContender(runtimeModule, { language: 'typescript' }),
  ptcHostContender(runtimeModule, { language: 'python', pythonPath }),
  workerContender(),
  quickjsContender(),
  isolatedVmContender({ install: false }),
];

const notes = [];
const ready = [];
for (const contender of contenders) {
  const status = await contender.init();
  if (status.ok) ready.push(contender);
  else {
    notes.push({ contender: contender.id, label: contender.label, note: status.note });
    log(`- ${contender.label}: not available (${status.note})`);
  }
}
if (!ready.some((c) => c.id === 'floor-node'))
  throw new Error('the node floor could not run: nothing to compare against');

// Which contenders take part in which workload: floors only where they are a floor; the cold/no-sandbox PTC
// variants only where process start-up is what is measured.
function participates(contender, workload) {
  if (workload.skip?.[contender.id] !== undefined) return false;
  if (contender.only !== undefined) return contender.only.includes(workload.id);
  if (contender.family === 'floor') return contender.workloads.includes(workload.id);
  if (contender.family === 'ptc' && workload.id !== 'trivial')
    return contender.spare && (contender.sandbox || contender.language === 'typescript');
  return true;
}

// ---- measurement ----------------------------------------------------------------------------------------------------
const results = { workloads: {}, memory: [], hostBounds: [], render: [] };
for (const workload of allWorkloads) {
  const members = ready.filter((c) => participates(c, workload));
  const samples = new Map(members.map((c) => [c.id, { wall: [], roundTrip: [], failures: [] }]));
  const slow = (c) => c.id === 'quickjs' && workload.slowIterations !== undefined;
  const iterationsOf = (c) => (slow(c) ? workload.slowIterations : workload.iterations)[level];
  const warmup = workload.warmup === false ? 0 : 1;
  for (const [id, note] of Object.entries(workload.skip ?? {})) {
    const c = ready.find((r) => r.id === id);
    if (c !== undefined) notes.push({ contender: id, label: `${c.label}: ${workload.title}`, note });
  }
  const rounds = Math.max(...members.map(iterationsOf)) + warmup;
  log(
    `\n${workload.id}: ${members.length} contenders × ${rounds - warmup} interleaved rounds${warmup ? ' (+1 warm-up)' : ''}`,
  );
  for (let pass = 1 - warmup; pass <= rounds - warmup; pass++) {
    // rotate the order each round so no contender always runs right after the same neighbour
    const order = members.map((_, i) => members[(i + pass) % members.length]);
    for (const contender of order) {
      if (pass > iterationsOf(contender)) continue;
      const stamps = [];
      const bindings = { echo: async (value) => (stamps.push(performance.now()), value) };
      await contender.prepare?.(workload, bindings);
      const r = await contender.run(workload, bindings);
      // background work a run leaves behind (a replacement spare) finishes before the next contender is timed
      await contender.prepare?.(workload, bindings);
      const callStamps = r.stamps ?? stamps;
      const ok =
        r.ok && (contender.family === 'floor' || workload.check({ ...r }, callStamps.length, contender.dialect));
      // pass 0 is the warm-up round
      if (pass === 0) continue;
      const s = samples.get(contender.id);
      if (!ok) {
        s.failures.push(
          r.error ??
            `wrong result (${JSON.stringify(r.value)?.slice(0, 80)}, ${callStamps.length} calls, ${r.logChars ?? 0} log chars)`,
        );
        continue;
      }
      s.wall.push(r.wallMs);
      for (let i = 1; i < callStamps.length; i++) s.roundTrip.push((callStamps[i] - callStamps[i - 1]) * 1000);
    }
    await sleep(20);
  }
  const rows = [];
  for (const contender of members) {
    const s = samples.get(contender.id);
    const row = {
      contender: contender.id,
      label: contender.label,
      family: contender.family,
      floor: contender.floor,
      failures: s.failures.slice(0, 3),
    };
    if (s.wall.length > 0) row.wallMs = stat(s.wall, 2);
    if (workload.metric === 'round-trip' && s.roundTrip.length > 0) row.roundTripUs = stat(s.roundTrip, 1);
    rows.push(row);
    const shown = row.roundTripUs
      ? `round trip p50 ${row.roundTripUs.p50} µs`
      : row.wallMs
        ? `p50 ${row.wallMs.p50} ms, p95 ${row.wallMs.p95} ms`
        : 'no successful run';
    log(
      `  ${contender.label.padEnd(66)} ${shown}${s.failures.length ? `  (${s.failures.length} failed: ${s.failures[0]})` : ''}`,
    );
  }
  addRatios(workload, rows);
  results.workloads[workload.id] = { title: workload.title, metric: workload.metric, rows };
}

function stat(values, digits) {
  const s = summarize(values);
  return {
    n: s.n,
    p50: round(s.p50, digits),
    p95: round(s.p95, digits),
    min: round(s.min, digits),
    max: round(s.max, digits),
  };
}

// Ratios against the floor of the contender's language, measured in this same run.
function addRatios(workload, rows) {
  const find = (id) => rows.find((r) => r.contender === id);
  for (const row of rows) {
    if (workload.metric === 'round-trip') {
      const floor = find(`floor-socketpair-${row.floor}`)?.roundTripUs?.p50;
      if (floor && row.roundTripUs) row.ratioToFloor = round(row.roundTripUs.p50 / floor, 2);
    } else {
      const floor =
        find(`floor-${row.floor}`)?.wallMs?.p50 ??
        results.workloads.trivial?.rows.find((r) => r.contender === `floor-${row.floor}`)?.wallMs?.p50;
      if (floor && row.wallMs) row.ratioToFloor = round(row.wallMs.p50 / floor, 2);
    }
  }
}

// ---- the cost of one run (issue 31): where a spare-ready run's time goes, and CPU per fresh run
// -------------------------
if (!skipCost) {
  const rounds = quick ? 10 : 30;
  log(`\nphases of a spare-ready trivial run (sandbox on): ${rounds} interleaved runs per language, p50 ms`);
  const phaseRuntimes = [];
  try {
    for (const language of pythonPath ? ['typescript', 'python'] : ['typescript']) {
      const runtime = runtimeModule.createRuntime({ spares: 1, ...(pythonPath ? { pythonPath } : {}) });
      phaseRuntimes.push({ language, runtime, request: { language, program: 'return 1', sandbox: 'best-effort' } });
    }
    results.phases = await measurePhases({ contenders: phaseRuntimes, rounds, log });
  } catch (error) {
    notes.push({ contender: 'phases', label: 'phase rows', note: `failed: ${String(error?.message ?? error)}` });
  } finally {
    for (const c of phaseRuntimes) await c.runtime.dispose();
  }
  log('\nCPU per fresh run, whole process tree (a cgroup of its own; floors interleaved), p50 ms');
  results.cpu = await measureCpu(quick ? 8 : 20);
  if (results.cpu.problem !== undefined)
    notes.push({ contender: 'cpu', label: 'CPU per fresh run', note: `not measured: ${results.cpu.problem}` });
  else
    for (const [id, s] of Object.entries(results.cpu))
      if (s?.p50 !== undefined) log(`  ${id.padEnd(20)} p50 ${s.p50} ms (p95 ${s.p95}, n ${s.n})`);
}

function measureCpu(rounds) {
  return probeProcess('cpu-host.mjs', [runtimePath, pythonPath ?? '-', String(rounds)], 'the CPU probe');
}

// A probe in a host process of its own (bench/lib/<script>): its last stdout line is its JSON result.
function probeProcess(script, args, what) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repo, 'bench', 'lib', script), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('close', () => {
      try {
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}'));
      } catch {
        resolve({ problem: `${what} printed no result: ${out.slice(0, 200)}` });
      }
    });
  });
}

// ---- memory: one fresh host process per contender -------------------------------------------------------------------
if (!skipRss) {
  const runs = quick ? 200 : 1000;
  const specs = [];
  const want = (id) => ready.some((c) => c.id === id);
  if (want('ptc-ts-sandbox-spare'))
    specs.push({
      kind: 'ptc',
      id: 'ptc-ts-sandbox-spare',
      label: 'PTC TypeScript (sandbox on, spare ready)',
      language: 'typescript',
      sandbox: true,
      spare: true,
      drip: true,
    });
  if (want('ptc-py-sandbox-spare'))
    specs.push({
      kind: 'ptc',
      id: 'ptc-py-sandbox-spare',
      label: 'PTC Python (sandbox on, spare ready)',
      language: 'python',
      sandbox: true,
      spare: true,
      pythonPath,
      drip: true,
    });
  if (want('worker')) specs.push({ kind: 'worker', id: 'worker', label: 'worker_threads Worker per run' });
  if (want('quickjs')) specs.push({ kind: 'quickjs', id: 'quickjs', label: 'quickjs-emscripten context per run' });
  if (want('isolated-vm')) specs.push({ kind: 'isolated-vm', id: 'isolated-vm', label: 'isolated-vm Isolate per run' });
  log(
    `\nmemory: ${runs} consecutive trivial runs per PTC backend (a quarter of that per in-process engine), each in its own host process`,
  );
  // all probes at once: memory figures do not depend on timing, and the process probes mostly wait on start-ups
  const probed = await Promise.all(specs.map((spec) => memoryProbe(spec, spec.kind === 'ptc' ? runs : runs / 4)));
  for (const m of probed) {
    results.memory.push(m);
    log(
      `  ${m.label.padEnd(50)} ${m.error ? `failed: ${m.error}` : `growth ${round(m.growthMb, 1)} MB, host peak ${round(m.hostPeakRssMb, 0)} MB${m.childPeakRssMb ? `, child peak ${round(m.childPeakRssMb, 0)} MB` : ''}, ${round(m.msPerRun, 1)} ms/run`}`,
    );
  }
  log('\nmemory per ready spare: one spare per engine, its whole process tree (a host process of its own), p50');
  results.spareMemory = await spareMemoryProbe();
  if (results.spareMemory.problem !== undefined)
    notes.push({ contender: 'spare-memory', label: 'memory per ready spare', note: results.spareMemory.problem });
}

// Memory per ready spare, per engine (issue 26), in a host process of its own: this one's contenders hold spares too.
function spareMemoryProbe() {
  const args = [runtimePath, pythonPath ?? '-', ...(quick ? ['--quick'] : [])];
  return probeProcess('spare-memory.mjs', args, 'the spare memory probe');
}

function memoryProbe(spec, runs) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', path.join(repo, 'bench', 'lib', 'rss-host.mjs'), JSON.stringify(spec), String(runs)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('close', () => {
      try {
        const parsed = JSON.parse(out.trim().split('\n').pop() ?? '{}');
        resolve({
          label: spec.label,
          ...parsed,
          ...Object.fromEntries(
            Object.entries(parsed)
              .filter(([, v]) => typeof v === 'number')
              .map(([k, v]) => [k, round(v, 2)]),
          ),
        });
      } catch {
        resolve({ id: spec.id, label: spec.label, error: `probe printed no result: ${out.slice(0, 200)}` });
      }
    });
  });
}

// ---- host bounds: real `ptc run` processes at the output cap and with 10^6 calls
// -------------------------------------
if (!skipHost && os.platform() === 'linux') {
  log('\nhost bounds: peak RSS of one `ptc run --json` process per case (VmHWM at exit)');
  results.hostBounds = await measureHostBounds({ repo, quick, log, pythonPath });
}

// ---- ptc test at scale: 1 000 cells replayed from cassettes, whole and one shard of two
// --------------------------------
if (!skipHost && os.platform() === 'linux') {
  log('\nptc test: 1 000 trivial cells across 50 notebooks, replayed from cassettes');
  results.testSuite = await measureTestSuite({ repo, quick, log });
}

// ---- extension activation: the shipped bundle's size, require() + activate() in fresh processes (issue 16)
// -------------
if (!skipActivation) {
  log('\nextension activation: production dist/extension.cjs, cold require() + activate() per fresh process');
  try {
    results.activation = await measureActivation({ repo, quick, log });
  } catch (error) {
    notes.push({
      contender: 'activation',
      label: 'extension activation',
      note: `activation bench failed: ${String(error?.message ?? error).split('\n')[0]}`,
    });
  }
}

// ---- render performance (webview engineer's bench/render.mjs, when present)
// ------------------------------------------
const renderModule = path.join(repo, 'bench', 'render.mjs');
if (!skipRender && fs.existsSync(renderModule)) {
  try {
    const { default: measureRender } = await import(pathToFileURL(renderModule).href);
    results.render = await measureRender(quick ? { samples: 8 } : undefined);
    for (const r of results.render) log(`  ${r.name}: p50 ${r.p50Ms} ms`);
  } catch (error) {
    notes.push({
      contender: 'render',
      label: 'render performance',
      note: `render bench failed: ${String(error?.message ?? error).split('\n')[0]}`,
    });
  }
}

for (const c of ready) await c.dispose();

// ---- report ---------------------------------------------------------------------------------------------------------
const report = {
  generatedAt: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  commit: gitCommit(),
  durationS: Math.round((Date.now() - benchStarted) / 1000),
  machine: {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memGiB: round(os.totalmem() / 2 ** 30, 1),
    loadAvgAtEnd: os.loadavg().map((v) => round(v, 2)),
    node: process.version,
    python: pythonVersion(pythonPath),
    platform: `${os.platform()} ${os.release()}`,
  },
  cpuKernel: cpu,
  contenders: contenders.map((c) => ({ id: c.id, label: c.label, family: c.family, available: ready.includes(c) })),
  notes,
  ...results,
};
// a whole full run joins the history its stability target reads; a quick or trimmed one is compared with it only
const complete = !quick && only === undefined && !skipRss && !skipHost && !skipRender && !skipActivation && !skipCost;
const history = complete ? recordRuns([report]) : readHistory();
const targets = evaluateTargets(results, { stability: spareStability(history) });
writeReport(repo, { ...report, targets });
log(`\nwrote bench/results.json, bench/history.json, docs/benchmarks.md, docs/benchmarks.svg in ${report.durationS} s`);
process.stdout.write(
  `\n${targets.map((t) => `${t.pass === true ? 'PASS' : t.pass === false ? 'MISS' : 'n/a '}  ${t.target}: ${t.measured}`).join('\n')}\n`,
);
process.exit(0);

// ---- helpers --------------------------------------------------------------------------------------------------------
// The real interpreter behind `python3` (a pyenv shim is a shell script: timing it would time bash too).
function resolvePython() {
  const r = spawnSync('python3', ['-I', '-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  const exe = r.status === 0 ? r.stdout.trim() : '';
  return exe.length > 0 ? exe : undefined;
}

// The measured code: HEAD, marked when the working tree differs from it.
function gitCommit() {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).stdout?.trim();
  if (!head) return null;
  // the bench's own outputs are not measured code (a second run in a row would otherwise count as changed code)
  const paths = ['runtime', 'python', 'bench', 'scripts', ':!bench/results.json', ':!bench/history.json'];
  const dirty = spawnSync('git', ['status', '--porcelain', '--', ...paths], {
    cwd: repo,
    encoding: 'utf8',
  }).stdout?.trim();
  return dirty ? `${head} (+ uncommitted changes)` : head;
}

function pythonVersion(exe) {
  if (exe === undefined) return null;
  const r = spawnSync(exe, ['-I', '-c', 'import sys; print(sys.version.split()[0])'], { encoding: 'utf8' });
  return r.stdout.trim() || null;
}

// Steps of the LCG kernel that take ≈200 ms: in this process's V8 for JS, in a python3 child for Python.
function calibrateCpu(python) {
  const kernel = new Function('n', cpuKernelJs('n'));
  const probeSteps = 5_000_000;
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    kernel(probeSteps);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const cpuStepsJs = Math.round((probeSteps * 200) / (times[2] ?? 1) / 1000) * 1000;
  let cpuStepsPy;
  if (python) {
    const code =
      'import time\nn=300000\nbest=1e9\nfor _ in range(3):\n    t=time.perf_counter()\n    x=1\n    for i in range(n):\n        x=(x*1664525+1013904223)%2147483648\n    best=min(best,time.perf_counter()-t)\nprint(n*0.2/best)';
    const r = spawnSync(python, ['-I', '-c', code], { encoding: 'utf8', timeout: 60_000 });
    const steps = Number(r.stdout.trim());
    if (Number.isFinite(steps) && steps > 0) cpuStepsPy = Math.round(steps / 1000) * 1000;
  }
  return { cpuStepsJs, cpuStepsPy };
}
