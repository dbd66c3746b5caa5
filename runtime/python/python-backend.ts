import type { CodeRunSpec } from '../api.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import { runOnFreshChild } from '../engine/fresh-child.js';
import type { SpareKey, SparePool } from '../engine/spare-pool.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import { planSandbox, unconfinedReport } from '../sandbox/plan.js';
import type { SandboxCapabilities } from '../sandbox/probe.js';
import { PYTHON_SHIM, PythonChildProcess, type PythonChildLaunch } from './python-child-process.js';
import { resolvePython, type PythonExecutable } from './python-executable.js';
import { superviseChild } from './supervise.js';
import { FILESYSTEM_MECHANISM, PROCESS_MECHANISM, provenLayers, type ProvenLayers } from './python-sandbox.js';

export interface PythonBackendDeps {
  caps: SandboxCapabilities;
  pythonPath: string | undefined;
  // pre-started children; absent or size 0 = every run starts cold
  spares?: SparePool<PythonChildProcess>;
}

type PlannedRun = { ok: true; report: SandboxReport; launch: PythonChildLaunch; key: SpareKey } | { ok: false; failure: RunFailure; report: SandboxReport };

// Everything the process is launched with, decided before any program is known (so a spare can be started early).
export function planPythonRun(spec: CodeRunSpec, python: PythonExecutable, caps: SandboxCapabilities, layers: ProvenLayers): PlannedRun {
  const plan = planSandbox(spec.sandbox, caps, {
    filesystem: layers.filesystem ? { mechanism: FILESYSTEM_MECHANISM } : undefined,
    childProcess: layers.childProcess ? { mechanism: PROCESS_MECHANISM } : undefined,
  });
  if (!plan.ok) return { ok: false, report: plan.report, failure: { kind: 'sandbox-unavailable', message: plan.message } };
  const confine = { filesystem: plan.useBackendLayers && layers.filesystem, childProcess: plan.useBackendLayers && layers.childProcess };
  // the confined root is assembled inside a private mount namespace
  const wrapper = confine.filesystem && plan.useNamespaces ? [...plan.wrapper, '--mount'] : plan.wrapper;
  const viaShim = wrapper.length > 0;
  const prefix = [...wrapper, ...(viaShim ? PYTHON_SHIM : [])];
  const pidNamespace = wrapper.includes('--pid') && wrapper.includes('--kill-child');
  const launch: PythonChildLaunch = { python, prefix, cwd: spec.cwd, viaShim, pidNamespace, confine, preload: false };
  // memory, CPU and output limits travel in `run`: only launch settings make a spare unfit
  const config = JSON.stringify([python.path, spec.cwd, confine, prefix]);
  return { ok: true, report: plan.report, launch, key: { language: 'python', config } };
}

async function prepare(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<{ ok: true; planned: PlannedRun } | { ok: false; message: string }> {
  const lookup = await resolvePython(deps.pythonPath);
  if (!lookup.ok) return lookup;
  // 'off' needs no proof of the layers it will not use
  const layers = spec.sandbox === 'off' ? { filesystem: false, childProcess: false } : await provenLayers(lookup.python, deps.caps);
  return { ok: true, planned: planPythonRun(spec, lookup.python, deps.caps, layers) };
}

// Starts (if needed) a spare for this spec's launch settings; resolves true once one is ready.
export async function warmPythonSpare(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<boolean> {
  const prepared = await prepare(spec, deps);
  if (!prepared.ok || !prepared.planned.ok || deps.spares === undefined) return false;
  const { launch, key } = prepared.planned;
  return deps.spares.warm(key, () => new PythonChildProcess({ ...launch, preload: true }));
}

// Runs one Python program in a fresh CPython process (a never-used spare or a cold start) and settles it.
export async function runPythonProgram(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<RunResult> {
  if (spec.signal?.aborted) return failedBeforeSpawn(spec, unconfinedReport(), { kind: 'abort', message: abortMessage(spec.signal) });
  // the runner relies on an inherited fd 3, POSIX signals and rlimits
  if (process.platform === 'win32')
    return failedBeforeSpawn(spec, unconfinedReport(), { kind: 'worker-exit', message: 'the Python backend runs on Linux and macOS only' });
  const prepared = await prepare(spec, deps);
  if (!prepared.ok) return failedBeforeSpawn(spec, unconfinedReport(), { kind: 'worker-exit', message: prepared.message });
  const planned = prepared.planned;
  if (spec.signal?.aborted) return failedBeforeSpawn(spec, planned.report, { kind: 'abort', message: abortMessage(spec.signal) });
  if (!planned.ok) return failedBeforeSpawn(spec, planned.report, planned.failure);
  return runOnFreshChild({
    spec,
    report: planned.report,
    spares: deps.spares,
    key: planned.key,
    startCold: () => new PythonChildProcess(planned.launch),
    startSpare: () => new PythonChildProcess({ ...planned.launch, preload: true }),
    coldStartProblem: 'could not stage the Python runner',
    supervise: (session, child) => superviseChild(spec, session, child),
  });
}
