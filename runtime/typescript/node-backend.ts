import type { CodeRunSpec } from '../api.js';
import { locateAsset } from '../assets/locate.js';
import type { Backend, BackendOptions } from '../engine/backend.js';
import { abortMessage, failedBeforeSpawn } from '../engine/early-results.js';
import { runOnFreshChild, withChannel } from '../engine/fresh-child.js';
import { markPhase } from '../engine/phase-marks.js';
import { SparePool, type SpareKey } from '../engine/spare-pool.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import { planSandbox, unconfinedReport, type Confinement, type ProvenLayers } from '../sandbox/plan.js';
import { sandboxHost } from '../sandbox/probe.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import { NodeChildProcess, type NodeChildLaunch } from './node-child-process.js';
import { probeNode, type NodeExecutable, type NodeLookup } from './node-executable.js';
import { nodeLaunch, type ChildExtras } from './node-launch.js';
import { provenNodeLayers } from './node-sandbox.js';
import { stripFailure, stripProgram } from './strip.js';
import { superviseNodeChild } from './supervise.js';

// Which program a Node child runs: the program itself (the `node` engine), QuickJS compiled to WebAssembly with the
// program inside it (the `quickjs` engine, runtime/wasm/quickjs/), or Pyodide with a Python program inside it (the
// `pyodide` engine, runtime/wasm/pyodide/). All share everything else in this backend.
export interface NodeChildEngine {
  name: 'node' | 'quickjs' | 'pyodide';
  // the language of the programs it runs (TypeScript is type-stripped before it is handed over)
  language: 'typescript' | 'python';
  // the child's entry, from dist/
  bootstrap: string;
  // what the child needs beyond its bootstrap (a folder of its own, V8 flags); a string says why it cannot start
  extras?: (found: {
    node: NodeExecutable;
    bootstrapPath: string;
  }) => ChildExtras | string | Promise<ChildExtras | string>;
  // the sandbox report of a run this engine runs, from the OS plan; resolves once its own proof ran
  report(
    plan: SandboxReport,
    spec: CodeRunSpec,
    deps: { node: NodeExecutable; bootstrapPath: string; host: SandboxHost },
  ): Promise<SandboxReport>;
  // what the OS plan asks of the OS sandbox for this engine (a wasm engine meets `required` on its own)
  osLevel(level: CodeRunSpec['sandbox']): CodeRunSpec['sandbox'];
}

export const NODE_ENGINE: NodeChildEngine = {
  name: 'node',
  language: 'typescript',
  bootstrap: 'runtime/node-child.cjs',
  report: (plan) =>
    Promise.resolve({ ...plan, engine: 'node', isolation: plan.enforcement === 'none' ? 'none' : 'os' }),
  osLevel: (level) => level,
};

interface NodeBackendDeps {
  engine: NodeChildEngine;
  node: NodeExecutable;
  bootstrapPath: string;
  host: SandboxHost;
  layers: ProvenLayers;
  spares: SparePool<NodeChildProcess>;
  // launches already planned, by their settings: planning reads the file system (library dirs, the binary's real
  // path) and builds the seccomp program, synchronously, which every run of a suite repeated for the same answer
  launches: Map<string, NodeChildLaunch>;
  extras: ChildExtras;
}

// distinct launch settings remembered at most (a suite has one per memory/tmp/sandbox combination, not per cell)
const MAX_PLANNED_LAUNCHES = 16;

// The TypeScript backend: Node children, found and proven once per backend, spares kept per launch setting.
export function createNodeBackend(options: BackendOptions, engine: NodeChildEngine = NODE_ENGINE): Backend {
  const { runtime } = options;
  // validated here so a bad count is a misuse at creation, not at the first run
  const spares = new SparePool<NodeChildProcess>(options.spares);
  const launches = new Map<string, NodeChildLaunch>();
  let lookup: Promise<NodeLookup> | undefined;
  // the sandbox proof runs only for runs that use it: 'off' needs no proof of layers it will not use
  const deps = async (spec: CodeRunSpec): Promise<NodeBackendDeps | string> => {
    lookup ??= probeNode(runtime.nodePath ?? process.execPath);
    const found = await lookup;
    const bootstrapPath = locateAsset(engine.bootstrap);
    if (!found.ok) return found.message;
    if (bootstrapPath === undefined)
      return `the ${engine.name} engine's child bootstrap (${engine.bootstrap}) is missing: run \`npm run build\``;
    const extras = (await engine.extras?.({ node: found.node, bootstrapPath })) ?? {};
    if (typeof extras === 'string') return extras;
    const host = await sandboxHost(runtime.bubblewrapPath);
    // the OS layers are proven by the node engine's probe (a program of Node's): a wasm engine's child is launched the
    // same way, so the same proof holds for it
    const layers =
      spec.sandbox === 'off'
        ? { os: undefined, osProblem: undefined, runtime: undefined, bounds: { problem: 'sandbox off' } }
        : await provenNodeLayers(found.node, locateAsset(NODE_ENGINE.bootstrap) ?? bootstrapPath, host);
    return { engine, node: found.node, bootstrapPath, host, layers, spares, launches, extras };
  };
  return {
    language: engine.language,
    run: async (spec) => {
      const found = await deps(spec);
      if (typeof found === 'string')
        return failedBeforeSpawn(spec, unconfinedReport(), { kind: 'worker-exit', message: found });
      return runNodeProgram(spec, found);
    },
    warm: async (spec) => {
      const found = await deps(spec);
      return typeof found === 'string' ? false : warmNodeSpare(spec, found);
    },
    osSandboxProblem: async (spec) => {
      const found = await deps({ ...spec, sandbox: 'best-effort' });
      if (typeof found === 'string') return found;
      return found.layers.os === undefined
        ? (found.layers.osProblem ?? found.host.bwrapProblem ?? 'the OS sandbox is unavailable')
        : undefined;
    },
    dispose: () => spares.dispose(),
  };
}

type PlannedRun =
  | { ok: true; report: SandboxReport; launch: NodeChildLaunch; key: SpareKey }
  | { ok: false; failure: RunFailure; report: SandboxReport };

// Everything a process is launched with, decided before any program is known (so a spare can be launched early).
async function planRun(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<PlannedRun> {
  const plan = planSandbox(deps.engine.osLevel(spec.sandbox), deps.host, deps.layers);
  const report = await deps.engine.report(plan.report, spec, deps);
  if (!plan.ok) return { ok: false, report, failure: { kind: 'sandbox-unavailable', message: plan.message } };
  const launch = plannedLaunch(deps, spec, plan.confinement);
  // every launch setting a program could observe; the temp dir differs per process by design
  // children connected to one bindings host are interchangeable; another host's are not
  const config = JSON.stringify([
    deps.node.path,
    deps.node.permissionFlag ?? null,
    deps.bootstrapPath,
    deps.extras.assetDir ?? null,
    spec.memoryMb,
    spec.tmpMb,
    // the folder only where the program sees it (not under bubblewrap)
    launch.cwd,
    plan.confinement,
    spec.hosted?.channelKey ?? null,
  ]);
  return { ok: true, report, launch, key: { language: deps.engine.language, config } };
}

// nodeLaunch's answer for these settings, planned once (the host and the binary are the backend's, fixed after
// probing).
function plannedLaunch(deps: NodeBackendDeps, spec: CodeRunSpec, confinement: Confinement): NodeChildLaunch {
  const settings = JSON.stringify([
    deps.node.path,
    deps.node.permissionFlag ?? null,
    deps.bootstrapPath,
    spec.memoryMb,
    spec.tmpMb,
    spec.cwd,
    confinement,
  ]);
  const known = deps.launches.get(settings);
  if (known !== undefined) return known;
  const launch = nodeLaunch({ deps, spec, confinement, permission: confinement.kind !== 'none', extras: deps.extras });
  if (deps.launches.size >= MAX_PLANNED_LAUNCHES) deps.launches.clear();
  deps.launches.set(settings, launch);
  return launch;
}

// Starts (if needed) a spare for this spec's launch settings; resolves true once one is ready.
async function warmNodeSpare(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<boolean> {
  const planned = await planRun(spec, deps);
  if (!planned.ok) return false;
  await spec.hosted?.prepare();
  return deps.spares.warm(
    planned.key,
    withChannel(spec.hosted, () => new NodeChildProcess({ ...planned.launch, channel: spec.hosted?.takeChannel() })),
  );
}

// Runs one TypeScript program in a fresh Node process (a never-used spare or a cold start) and settles it.
async function runNodeProgram(spec: CodeRunSpec, deps: NodeBackendDeps): Promise<RunResult> {
  const planned = await planRun(spec, deps);
  markPhase(spec, 'planned');
  if (spec.signal?.aborted)
    return failedBeforeSpawn(spec, planned.report, { kind: 'abort', message: abortMessage(spec.signal) });
  if (!planned.ok) return failedBeforeSpawn(spec, planned.report, planned.failure);
  const stripped =
    deps.engine.language === 'typescript'
      ? await stripProgram(spec.program)
      : ({ ok: true, code: spec.program } as const);
  markPhase(spec, 'stripped');
  if (!stripped.ok) {
    return failedBeforeSpawn(spec, planned.report, stripFailure(stripped));
  }
  if (spec.signal?.aborted)
    return failedBeforeSpawn(spec, planned.report, { kind: 'abort', message: abortMessage(spec.signal) });

  const start = (): NodeChildProcess =>
    new NodeChildProcess({ ...planned.launch, channel: spec.hosted?.takeChannel() });
  return runOnFreshChild({
    spec,
    report: planned.report,
    spares: deps.spares,
    key: planned.key,
    startCold: start,
    startSpare: start,
    coldStartProblem: "could not create the run's private temp dir",
    supervise: (session, child) => superviseNodeChild(spec, session, child, stripped.code, deps.engine.name),
  });
}
