import path from 'node:path';
import type { CodeRunSpec } from '../api.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import { runOnFreshChild } from '../engine/fresh-child.js';
import type { SpareKey, SparePool } from '../engine/spare-pool.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import { confinedArgv, SANDBOX_DIR, SANDBOX_TMP, type BindMount } from '../sandbox/bwrap.js';
import { planSandbox, unconfinedReport, type Confinement, type ProvenLayers } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/probe.js';
import { execFilter, sandboxFilter } from '../sandbox/seccomp.js';
import { PYTHON_SHIM, PythonChildProcess, type PythonChildLaunch } from './python-child-process.js';
import { PYTHON_FLAGS, resolvePython, type PythonExecutable } from './python-executable.js';
import { provenPythonLayers } from './python-sandbox.js';
import { superviseChild } from './supervise.js';

export interface PythonBackendDeps {
  host: SandboxHost;
  pythonPath: string | undefined;
  // pre-started children; absent or size 0 = every run starts cold
  spares?: SparePool<PythonChildProcess>;
}

type PlannedRun = { ok: true; report: SandboxReport; launch: PythonChildLaunch; key: SpareKey } | { ok: false; failure: RunFailure; report: SandboxReport };

const RUNNER_INSIDE = `${SANDBOX_DIR}/runner`;

// Everything the process is launched with, decided before any program is known (so a spare can be started early).
export function planPythonRun(spec: CodeRunSpec, python: PythonExecutable, host: SandboxHost, layers: ProvenLayers): PlannedRun {
  const plan = planSandbox(spec.sandbox, host, layers);
  if (!plan.ok) return { ok: false, report: plan.report, failure: { kind: 'sandbox-unavailable', message: plan.message } };
  const launch = pythonLaunch({ python, host, spec, confinement: plan.confinement });
  // memory, CPU and output limits travel in `run`: only launch settings make a spare unfit
  // children connected to one bindings host are interchangeable; another host's are not
  const config = JSON.stringify([python.path, spec.cwd, spec.tmpMb, plan.confinement, spec.hosted?.channelKey ?? null]);
  return { ok: true, report: plan.report, launch, key: { language: 'python', config } };
}

export interface PythonLaunchOptions {
  python: PythonExecutable;
  host: SandboxHost;
  spec: Pick<CodeRunSpec, 'cwd' | 'tmpMb'>;
  confinement: Confinement;
}

// The argv of one CPython child under a confinement: bubblewrap around the interpreter, or the fallback wrapper
// and shim with the whole seccomp filter installed by the runner itself.
export function pythonLaunch(options: PythonLaunchOptions): PythonChildLaunch {
  const { python, host, spec, confinement } = options;
  const arch = host.arch;
  const common = { python, cwd: spec.cwd, preload: false };
  if (confinement.kind === 'bwrap' && arch !== undefined) {
    const base = {
      host,
      binds: pythonBinds(python),
      tmpBytes: spec.tmpMb * 1024 * 1024,
      // fd 3 is the control channel
      seccompFd: 4,
    };
    return {
      ...common,
      argv: (runnerDir) =>
        confinedArgv({
          ...base,
          binds: [...base.binds, { source: runnerDir, dest: RUNNER_INSIDE }],
          command: [python.path, ...PYTHON_FLAGS, `${RUNNER_INSIDE}/${python.entryFile}`],
        }),
      viaShim: true,
      pidNamespace: true,
      diesWithParent: true,
      filters: [execFilter(arch).toString('base64')],
      programTmpdir: SANDBOX_TMP,
      programCwd: SANDBOX_TMP,
      feeds: [sandboxFilter(arch)],
    };
  }
  const wrapper = confinement.kind === 'bwrap' ? [] : confinement.wrapper;
  const viaShim = wrapper.length > 0;
  const prefix = [...wrapper, ...(viaShim ? PYTHON_SHIM : [])];
  const filters = confinement.kind === 'fallback' && arch !== undefined ? [sandboxFilter(arch), execFilter(arch)].map((f) => f.toString('base64')) : [];
  return {
    ...common,
    argv: (runnerDir) => [...prefix, python.path, ...PYTHON_FLAGS, path.join(runnerDir, python.entryFile)],
    viaShim,
    pidNamespace: wrapper.includes('--pid') && wrapper.includes('--kill-child'),
    diesWithParent: false,
    filters,
    programTmpdir: undefined,
    programCwd: undefined,
    feeds: [],
  };
}

// The interpreter inside the sandbox: a private prefix (pyenv, a venv's base) whole; a system one only its binary
// and import dirs, since /usr/lib is bound already and /usr/bin must stay outside.
function pythonBinds(python: PythonExecutable): BindMount[] {
  const system = ['/', '/usr', '/usr/local'].includes(python.prefix);
  const binds: BindMount[] = system ? [] : [{ source: python.prefix, dest: python.prefix }];
  const inside = (p: string): boolean => !system && (p === python.prefix || p.startsWith(`${python.prefix}/`));
  for (const p of [python.path, ...python.importDirs, ...python.sitePackages])
    if (!inside(p) && !binds.some((b) => b.dest === p)) binds.push({ source: p, dest: p });
  return binds;
}

async function prepare(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<{ ok: true; planned: PlannedRun } | { ok: false; message: string }> {
  const lookup = await resolvePython(deps.pythonPath);
  if (!lookup.ok) return lookup;
  // 'off' needs no proof of the layers it will not use
  const layers: ProvenLayers =
    spec.sandbox === 'off' ? { os: undefined, osProblem: undefined, runtime: undefined } : await provenPythonLayers(lookup.python, deps.host);
  return { ok: true, planned: planPythonRun(spec, lookup.python, deps.host, layers) };
}

// Starts (if needed) a spare for this spec's launch settings; resolves true once one is ready.
export async function warmPythonSpare(spec: CodeRunSpec, deps: PythonBackendDeps): Promise<boolean> {
  const prepared = await prepare(spec, deps);
  if (!prepared.ok || !prepared.planned.ok || deps.spares === undefined) return false;
  const { launch, key } = prepared.planned;
  await spec.hosted?.prepare();
  return deps.spares.warm(key, () => new PythonChildProcess({ ...launch, preload: true, channel: spec.hosted?.takeChannel() }));
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
    startCold: () => new PythonChildProcess({ ...planned.launch, channel: spec.hosted?.takeChannel() }),
    startSpare: () => new PythonChildProcess({ ...planned.launch, preload: true, channel: spec.hosted?.takeChannel() }),
    coldStartProblem: 'could not stage the Python runner',
    supervise: (session, child) => superviseChild(spec, session, child),
  });
}
