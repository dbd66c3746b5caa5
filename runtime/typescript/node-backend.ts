import type { CodeRunSpec } from '../api.js';
import { describeExit, superviseLifecycle } from '../engine/supervise-child.js';
import { runOnFreshChild } from '../engine/fresh-child.js';
import type { RunSession } from '../engine/run-session.js';
import type { SpareKey, SparePool } from '../engine/spare-pool.js';
import { connectRun } from '../engine/program-frames.js';
import { ChildFrameSchema, type BootFrame } from '../protocol/node-wire.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import fs from 'node:fs';
import path from 'node:path';
import { confinedArgv, SANDBOX_DIR, SANDBOX_TMP, type BindMount } from '../sandbox/bwrap.js';
import { planSandbox, type Confinement, type ProvenLayers } from '../sandbox/plan.js';
import type { SandboxHost } from '../sandbox/probe.js';
import { sandboxFilter } from '../sandbox/seccomp.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import { NodeChildProcess, type NodeChildLaunch } from './node-child-process.js';
import type { NodeExecutable } from './node-executable.js';
import { stripProgram } from './strip.js';

export interface NodeBackendDeps {
  node: NodeExecutable;
  bootstrapPath: string;
  host: SandboxHost;
  layers: ProvenLayers;
  // pre-started children; absent or size 0 = every run starts cold
  spares?: SparePool<NodeChildProcess>;
}

const SHIM = ['/bin/sh', '-c', '"$@"; exit $?', 'ptc-init'];
const BOOTSTRAP_INSIDE = `${SANDBOX_DIR}/node-child.cjs`;

type PlannedRun = { ok: true; report: SandboxReport; launch: NodeChildLaunch; key: SpareKey } | { ok: false; failure: RunFailure; report: SandboxReport };

// Everything a process is launched with, decided before any program is known (so a spare can be launched early).
function planRun(spec: CodeRunSpec, deps: NodeBackendDeps): PlannedRun {
  const plan = planSandbox(spec.sandbox, deps.host, deps.layers);
  if (!plan.ok) return { ok: false, report: plan.report, failure: { kind: 'sandbox-unavailable', message: plan.message } };
  const launch = nodeLaunch({ deps, spec, confinement: plan.confinement, permission: plan.confinement.kind !== 'none' });
  // every launch setting a program could observe; the temp dir differs per process by design
  // children connected to one bindings host are interchangeable; another host's are not
  const config = JSON.stringify([
    deps.node.path,
    deps.node.permissionFlag ?? null,
    deps.bootstrapPath,
    spec.memoryMb,
    spec.tmpMb,
    spec.cwd,
    plan.confinement,
    spec.hosted?.channelKey ?? null,
  ]);
  return { ok: true, report: plan.report, launch, key: { language: 'typescript', config } };
}

export interface NodeLaunchOptions {
  deps: Pick<NodeBackendDeps, 'node' | 'bootstrapPath' | 'host'>;
  spec: Pick<CodeRunSpec, 'memoryMb' | 'tmpMb' | 'cwd'>;
  confinement: Confinement;
  // Node's permission model as the second layer (off only for the sandbox proof, which tests the OS layer alone)
  permission: boolean;
}

// The argv of one Node child under a confinement: bubblewrap around node, or the fallback wrapper and shim.
export function nodeLaunch(options: NodeLaunchOptions): NodeChildLaunch {
  const { deps, spec, confinement } = options;
  const flags = ['--no-warnings', `--max-old-space-size=${spec.memoryMb}`];
  const permission = options.permission && deps.node.permissionFlag !== undefined ? deps.node.permissionFlag : undefined;
  if (confinement.kind === 'bwrap' && deps.host.arch !== undefined) {
    const tmpBytes = spec.tmpMb * 1024 * 1024;
    if (permission !== undefined)
      flags.push(permission, `--allow-fs-read=${BOOTSTRAP_INSIDE}`, `--allow-fs-read=${SANDBOX_TMP}/`, `--allow-fs-write=${SANDBOX_TMP}/`);
    const argv = confinedArgv({
      host: deps.host,
      binds: [...nodeBinds(deps.node.path), { source: deps.bootstrapPath, dest: BOOTSTRAP_INSIDE }],
      tmpBytes,
      // fd 3 and 4 are the frame pipes
      seccompFd: 5,
      command: [deps.node.path, ...flags, BOOTSTRAP_INSIDE],
    });
    return {
      argv: () => argv,
      cwd: spec.cwd,
      viaShim: true,
      pidNamespace: true,
      programTmpdir: SANDBOX_TMP,
      feeds: [sandboxFilter(deps.host.arch)],
      diesWithParent: true,
      confined: true,
    };
  }
  const wrapper = confinement.kind === 'bwrap' ? [] : confinement.wrapper;
  const viaShim = wrapper.length > 0;
  const prefix = [...wrapper, ...(viaShim ? SHIM : [])];
  const pidNamespace = wrapper.includes('--pid') && wrapper.includes('--kill-child');
  return {
    argv: (tmpdir) => [
      ...prefix,
      deps.node.path,
      ...flags,
      // the bootstrap file and the private temp dir are all the program can touch
      ...(permission === undefined ? [] : [permission, `--allow-fs-read=${deps.bootstrapPath}`, `--allow-fs-read=${tmpdir}/`, `--allow-fs-write=${tmpdir}/`]),
      deps.bootstrapPath,
    ],
    cwd: spec.cwd,
    viaShim,
    pidNamespace,
    programTmpdir: undefined,
    feeds: [],
    diesWithParent: false,
    confined: confinement.kind !== 'none',
  };
}

// The Node executable inside the sandbox: the file alone from a shared bin dir, its whole dir otherwise (an
// Electron or bundled Node keeps its snapshot and ICU data beside the binary).
function nodeBinds(nodePath: string): BindMount[] {
  const real = fs.realpathSync(nodePath);
  const dir = path.dirname(real);
  const shared = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin'].includes(dir);
  const binds: BindMount[] = [{ source: shared ? real : dir, dest: shared ? real : dir }];
  // the path the child is started by, when it is a symlink to the real binary
  if (real !== nodePath) binds.push({ source: real, dest: nodePath });
  return binds;
}

// Starts (if needed) a spare for this spec's launch settings; resolves true once one is ready.
export async function warmNodeSpare(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<boolean> {
  const planned = planRun(spec, deps);
  if (!planned.ok || deps.spares === undefined) return false;
  await spec.hosted?.prepare();
  return deps.spares.warm(planned.key, () => new NodeChildProcess({ ...planned.launch, channel: spec.hosted?.takeChannel() }));
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

  const start = (): NodeChildProcess => new NodeChildProcess({ ...planned.launch, channel: spec.hosted?.takeChannel() });
  return runOnFreshChild({
    spec,
    report: planned.report,
    spares: deps.spares,
    key: planned.key,
    startCold: start,
    startSpare: start,
    coldStartProblem: "could not create the run's private temp dir",
    supervise: (session, child) => superviseNodeChild(spec, session, child, stripped.code),
  });
}

export async function superviseNodeChild(spec: CodeRunSpec, session: RunSession, child: NodeChildProcess, code: string): Promise<RunResult> {
  const { dispatcher, send, routed } = connectRun({ session, child, parse: (value) => ChildFrameSchema.safeParse(value), valueless: 'absent' });
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
      confined: child.confined,
      ...(spec.deterministic === undefined ? {} : { deterministic: spec.deterministic }),
      ...(routed && child.bindingsFd !== undefined ? { bindingsFd: child.bindingsFd } : {}),
    };
    session.markHandedOver();
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
      const oom = session.ledger.entries.some((e) => e.stream === 'stderr' && /heap out of memory|Reached heap limit/.test(e.text));
      return { kind: 'worker-exit', message: `Node process exited before completing (${describeExit(exit)})${oom ? ': JavaScript heap out of memory' : ''}` };
    },
  });
}
