import type { CodeRunSpec } from '../api.js';
import { describeExit, superviseLifecycle } from '../engine/supervise-child.js';
import { runOnFreshChild } from '../engine/fresh-child.js';
import type { RunSession } from '../engine/run-session.js';
import type { SpareKey, SparePool } from '../engine/spare-pool.js';
import { connectRun } from '../engine/program-frames.js';
import { ChildFrameSchema, type BootFrame } from '../protocol/node-wire.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import type { SandboxCapabilities } from '../sandbox/probe.js';
import { planSandbox } from '../sandbox/plan.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import { NodeChildProcess, type NodeChildLaunch } from './node-child-process.js';
import type { NodeExecutable } from './node-executable.js';
import { stripProgram } from './strip.js';

export interface NodeBackendDeps {
  node: NodeExecutable;
  bootstrapPath: string;
  caps: SandboxCapabilities;
  // pre-started children; absent or size 0 = every run starts cold
  spares?: SparePool<NodeChildProcess>;
}

const SHIM = ['/bin/sh', '-c', '"$@"; exit $?', 'ptc-init'];
const PERMISSION_MECHANISM = 'node-permission-model';

type PlannedRun = { ok: true; report: SandboxReport; launch: NodeChildLaunch; key: SpareKey } | { ok: false; failure: RunFailure; report: SandboxReport };

// Everything a process is launched with, decided before any program is known (so a spare can be launched early).
function planRun(spec: CodeRunSpec, deps: NodeBackendDeps): PlannedRun {
  const layer = deps.node.permissionFlag === undefined ? undefined : { mechanism: PERMISSION_MECHANISM };
  const plan = planSandbox(spec.sandbox, deps.caps, { filesystem: layer, childProcess: layer });
  if (!plan.ok) return { ok: false, report: plan.report, failure: { kind: 'sandbox-unavailable', message: plan.message } };
  const viaShim = plan.wrapper.length > 0;
  const prefix = [...plan.wrapper, ...(viaShim ? SHIM : [])];
  const confine = plan.useBackendLayers;
  const pidNamespace = plan.wrapper.includes('--pid') && plan.wrapper.includes('--kill-child');
  const launch: NodeChildLaunch = { argv: (tmpdir) => [...prefix, ...nodeArgv(deps, spec, confine, tmpdir)], cwd: spec.cwd, viaShim, pidNamespace };
  // every launch setting a program could observe; the temp dir differs per process by design
  const config = JSON.stringify([deps.node.path, deps.node.permissionFlag ?? null, deps.bootstrapPath, spec.memoryMb, spec.cwd, confine, prefix]);
  return { ok: true, report: plan.report, launch, key: { language: 'typescript', config } };
}

// Starts (if needed) a spare for this spec's launch settings; resolves true once one is ready.
export async function warmNodeSpare(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<boolean> {
  const planned = planRun(spec, deps);
  if (!planned.ok || deps.spares === undefined) return false;
  return deps.spares.warm(planned.key, () => new NodeChildProcess(planned.launch));
}

// Runs one TypeScript program in a fresh Node process (a never-used spare or a cold start) and settles it.
export async function runNodeProgram(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<RunResult> {
  const planned = planRun(spec, deps);
  if (spec.signal?.aborted) return failedBeforeSpawn(spec, planned.report, { kind: 'abort', message: abortMessage(spec.signal) });
  if (!planned.ok) return failedBeforeSpawn(spec, planned.report, planned.failure);
  const stripped = await stripProgram(spec.program);
  if (!stripped.ok) {
    const failure =
      stripped.location === undefined
        ? { kind: 'exception' as const, message: stripped.message }
        : { kind: 'exception' as const, message: stripped.message, location: stripped.location };
    return failedBeforeSpawn(spec, planned.report, failure);
  }
  if (spec.signal?.aborted) return failedBeforeSpawn(spec, planned.report, { kind: 'abort', message: abortMessage(spec.signal) });

  const start = (): NodeChildProcess => new NodeChildProcess(planned.launch);
  return runOnFreshChild({
    spec,
    report: planned.report,
    spares: deps.spares,
    key: planned.key,
    startCold: start,
    startSpare: start,
    coldStartProblem: "could not create the run's private temp dir",
    supervise: (session, child) => superviseChild(spec, session, child, stripped.code),
  });
}

function nodeArgv(deps: NodeBackendDeps, spec: CodeRunSpec, confine: boolean, tmpdir: string): string[] {
  const flags = ['--no-warnings', `--max-old-space-size=${spec.memoryMb}`];
  if (confine && deps.node.permissionFlag !== undefined) {
    // the bootstrap file and the private temp dir are all the program can touch
    flags.push(deps.node.permissionFlag, `--allow-fs-read=${deps.bootstrapPath}`, `--allow-fs-read=${tmpdir}/`, `--allow-fs-write=${tmpdir}/`);
  }
  return [deps.node.path, ...flags, deps.bootstrapPath];
}

async function superviseChild(spec: CodeRunSpec, session: RunSession, child: NodeChildProcess, code: string): Promise<RunResult> {
  const { dispatcher, send } = connectRun({ session, child, parse: (value) => ChildFrameSchema.safeParse(value), valueless: 'absent' });
  // a cold child sends ready after attach, a spare before: either way the program goes out once it is ready
  const handedOver = child.ready.then((ok) => {
    if (!ok || session.outcome !== undefined) return false;
    const boot: BootFrame = {
      type: 'boot',
      code,
      namespaces: spec.bindings.map((ns) => ({ global: ns.global, names: Object.keys(ns.functions), ...(ns.errorClass ? { errorClass: ns.errorClass } : {}) })),
      maxOutputBytes: spec.maxOutputBytes,
      maxPendingCalls: spec.maxPendingCalls,
      tmpdir: child.tmpdir,
      ...(spec.deterministic === undefined ? {} : { deterministic: spec.deterministic }),
    };
    send(JSON.stringify(boot));
    return true;
  });
  return superviseLifecycle({
    spec,
    session,
    dispatcher,
    child,
    handedOver,
    runtimeName: 'Node',
    exitFailure: (exit) => {
      const oom = session.ledger.someStderr((text) => /heap out of memory|Reached heap limit/.test(text));
      return { kind: 'worker-exit', message: `Node process exited before completing (${describeExit(exit)})${oom ? ': JavaScript heap out of memory' : ''}` };
    },
  });
}
