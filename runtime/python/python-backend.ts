import type { CodeRunSpec } from '../api.js';
import type { Backend, BackendOptions } from '../engine/backend.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import { runOnFreshChild, withChannel } from '../engine/fresh-child.js';
import { markPhase } from '../engine/phase-marks.js';
import { SparePool, type SpareKey } from '../engine/spare-pool.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import { planSandbox, unconfinedReport, type ProvenLayers } from '../sandbox/plan.js';
import { sandboxHost } from '../sandbox/probe.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { PythonChildProcess, type PythonChildLaunch } from './python-child-process.js';
import { resolvePython, type PythonExecutable } from './python-executable.js';
import { pythonLaunch } from './python-launch.js';
import { provenPythonLayers } from './python-sandbox.js';
import { supervisePythonChild } from './supervise.js';

interface PythonBackendDeps {
  host: SandboxHost;
  pythonPath: string | undefined;
  spares: SparePool<PythonChildProcess>;
}

// The Python backend: CPython children running python/ptc_runner.py, spares kept per launch setting.
export function createPythonBackend(options: BackendOptions): Backend {
  const { runtime } = options;
  // validated here so a bad count is a misuse at creation, not at the first run
  const spares = new SparePool<PythonChildProcess>(options.spares);
  const deps = async (): Promise<PythonBackendDeps> => ({
    host: await sandboxHost(runtime.bubblewrapPath),
    pythonPath: runtime.pythonPath,
    spares,
  });
  return {
    language: 'python',
    run: async (spec) => runPythonProgram(spec, await deps()),
    warm: async (spec) => warmPythonSpare(spec, await deps()),
    osSandboxProblem: async () => {
      const { host } = await deps();
      const lookup = await resolvePython(runtime.pythonPath);
      if (!lookup.ok) return lookup.message;
      const layers = await provenPythonLayers(lookup.python, host);
      return layers.os === undefined
        ? (layers.osProblem ?? host.bwrapProblem ?? 'the OS sandbox is unavailable')
        : undefined;
    },
    dispose: () => spares.dispose(),
  };
}

type PlannedRun =
  | { ok: true; report: SandboxReport; launch: PythonChildLaunch; key: SpareKey }
  | { ok: false; failure: RunFailure; report: SandboxReport };

// Everything the process is launched with, decided before any program is known (so a spare can be started early).
export function planPythonRun(
  spec: CodeRunSpec,
  python: PythonExecutable,
  host: SandboxHost,
  layers: ProvenLayers,
): PlannedRun {
  const plan = planSandbox(spec.sandbox, host, layers);
  if (!plan.ok)
    return { ok: false, report: plan.report, failure: { kind: 'sandbox-unavailable', message: plan.message } };
  const launch = pythonLaunch({ python, host, spec, confinement: plan.confinement });
  // memory, CPU and output limits travel in `run`: only launch settings make a spare unfit
  // children connected to one bindings host are interchangeable; another host's are not
  // the folder only where the program sees it (not under bubblewrap)
  const config = JSON.stringify([
    python.path,
    launch.cwd,
    spec.tmpMb,
    spec.memoryMb,
    plan.confinement,
    spec.hosted?.channelKey ?? null,
  ]);
  return { ok: true, report: plan.report, launch, key: { language: 'python', config } };
}

async function prepare(
  spec: CodeRunSpec,
  deps: PythonBackendDeps,
): Promise<{ ok: true; planned: PlannedRun } | { ok: false; message: string }> {
  const lookup = await resolvePython(deps.pythonPath);
  if (!lookup.ok) return lookup;
  // 'off' needs no proof of the layers it will not use
  const layers: ProvenLayers =
    spec.sandbox === 'off'
      ? { os: undefined, osProblem: undefined, runtime: undefined, bounds: { problem: 'sandbox off' } }
      : await provenPythonLayers(lookup.python, deps.host);
  return { ok: true, planned: planPythonRun(spec, lookup.python, deps.host, layers) };
}

// Whether a spare should preload asyncio and the failure renderer (linecache, traceback) while it waits. Their imports
// cost more CPU than the rest of the runner's start-up (on every spare, used or not), and a program that imports
// nothing never needs asyncio (python/ptc_runner.py drives it without an event loop): the spare started for the next
// run preloads them when the latest program of these settings could import anything at all, the runner's own test
// (_may_reach_asyncio) read conservatively on the text. A program that finds nothing preloaded imports it itself.
export function sparePreloads(program: string): boolean {
  return /import|__|\b(?:exec|eval|compile|globals|vars|getattr|breakpoint)\b/.test(program);
}

// Starts (if needed) a spare for this spec's launch settings; resolves true once one is ready.
async function warmPythonSpare(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<boolean> {
  const prepared = await prepare(spec, deps);
  if (!prepared.ok || !prepared.planned.ok) return false;
  const { launch, key } = prepared.planned;
  await spec.hosted?.prepare();
  return deps.spares.warm(
    key,
    withChannel(
      spec.hosted,
      () =>
        new PythonChildProcess({
          ...launch,
          preload: sparePreloads(spec.program),
          channel: spec.hosted?.takeChannel(),
        }),
    ),
  );
}

// Runs one Python program in a fresh CPython process (a never-used spare or a cold start) and settles it.
async function runPythonProgram(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<RunResult> {
  if (spec.signal?.aborted)
    return failedBeforeSpawn(spec, unconfinedReport(), { kind: 'abort', message: abortMessage(spec.signal) });
  // the runner relies on an inherited fd 3, POSIX signals and rlimits
  if (process.platform === 'win32')
    return failedBeforeSpawn(spec, unconfinedReport(), {
      kind: 'worker-exit',
      message: 'the Python backend runs on Linux and macOS only',
    });
  const prepared = await prepare(spec, deps);
  if (!prepared.ok)
    return failedBeforeSpawn(spec, unconfinedReport(), { kind: 'worker-exit', message: prepared.message });
  const planned = prepared.planned;
  markPhase(spec, 'planned');
  if (spec.signal?.aborted)
    return failedBeforeSpawn(spec, planned.report, { kind: 'abort', message: abortMessage(spec.signal) });
  if (!planned.ok) return failedBeforeSpawn(spec, planned.report, planned.failure);
  return runOnFreshChild({
    spec,
    report: planned.report,
    spares: deps.spares,
    key: planned.key,
    startCold: () => new PythonChildProcess({ ...planned.launch, channel: spec.hosted?.takeChannel() }),
    startSpare: () =>
      new PythonChildProcess({
        ...planned.launch,
        preload: sparePreloads(spec.program),
        channel: spec.hosted?.takeChannel(),
      }),
    coldStartProblem: 'could not stage the Python runner',
    supervise: (session, child) => supervisePythonChild(spec, session, child),
  });
}
