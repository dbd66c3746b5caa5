// Public entry of the VS Code-free runtime core.
import type { CodeRunRequest, CodeRunSpec, Runtime, RuntimeOptions } from './api.js';
import { locateAsset } from './assets/locate.js';
import { RuntimeMisuseError } from './contract/misuse.js';
import { tempDirProblem } from './contract/environment.js';
import { isIssuedSpec, resolveRequest } from './contract/resolve.js';
import { failedBeforeSpawn } from './engine/early-results.js';
import type { RunResult } from './protocol/run-result.js';
import { unconfinedReport } from './sandbox/plan.js';
import { sandboxCapabilities } from './sandbox/probe.js';
import { pendingTeardowns } from './engine/fresh-child.js';
import { SparePool } from './engine/spare-pool.js';
import { runNodeProgram, warmNodeSpare, type NodeBackendDeps } from './typescript/node-backend.js';
import type { NodeChildProcess } from './typescript/node-child-process.js';
import { probeNode, type NodeLookup } from './typescript/node-executable.js';
import { runPythonProgram, warmPythonSpare, type PythonBackendDeps } from './python/python-backend.js';
import type { PythonChildProcess } from './python/python-child-process.js';

export type * from './api.js';
export type { JsonValue } from './protocol/json-value.js';
export * from './protocol/run-result.js';
export { RuntimeMisuseError } from './contract/misuse.js';

// Creates a runtime: `resolve` validates a request, `run` executes it in a fresh process, `dispose` stops everything.
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  let disposed = false;
  const active = new Set<AbortController>();
  const running = new Set<Promise<RunResult>>();
  let nodeLookup: NodeLookup | undefined;
  // validated here so a bad count is a misuse at creation, not at the first run
  const nodeSpares = new SparePool<NodeChildProcess>(options.spares ?? 0);
  const pythonSpares = new SparePool<PythonChildProcess>(options.spares ?? 0);
  const pythonDeps = (): PythonBackendDeps => ({ caps: sandboxCapabilities(), pythonPath: options.pythonPath, spares: pythonSpares });

  const resolve = (request: CodeRunRequest): CodeRunSpec => {
    if (disposed) throw new RuntimeMisuseError('runtime is disposed');
    return resolveRequest(request, options);
  };

  const nodeDeps = (): NodeBackendDeps | string => {
    nodeLookup ??= probeNode(options.nodePath ?? process.execPath);
    const bootstrapPath = locateAsset('runtime/node-child.cjs');
    if (!nodeLookup.ok) return nodeLookup.message;
    if (bootstrapPath === undefined) return 'the Node child bootstrap (runtime/node-child.cjs) is missing: run `npm run build`';
    return { node: nodeLookup.node, bootstrapPath, caps: sandboxCapabilities(), spares: nodeSpares };
  };

  const execute = async (spec: CodeRunSpec, signal: AbortSignal): Promise<RunResult> => {
    const scoped: CodeRunSpec = { ...spec, signal };
    // checked per run, not once: the one thing every backend stages before it can start a process
    const environment = signal.aborted ? undefined : tempDirProblem();
    if (environment !== undefined) return failedBeforeSpawn(scoped, unconfinedReport(), { kind: 'worker-exit', message: environment });
    if (spec.language === 'python') return runPythonProgram(scoped, pythonDeps());
    const deps = nodeDeps();
    if (typeof deps === 'string') return failedBeforeSpawn(scoped, unconfinedReport(), { kind: 'worker-exit', message: deps });
    return runNodeProgram(scoped, deps);
  };

  const warm = async (spec: CodeRunSpec): Promise<boolean> => {
    if (disposed) throw new RuntimeMisuseError('runtime is disposed');
    if (!isIssuedSpec(spec)) throw new RuntimeMisuseError('warm() takes the spec returned by resolve()');
    if (spec.language === 'python') return warmPythonSpare(spec, pythonDeps());
    const deps = nodeDeps();
    return typeof deps === 'string' ? false : warmNodeSpare(spec, deps);
  };

  const run = async (spec: CodeRunSpec): Promise<RunResult> => {
    if (disposed) throw new RuntimeMisuseError('runtime is disposed');
    if (!isIssuedSpec(spec)) throw new RuntimeMisuseError('run() takes the spec returned by resolve(), unaltered');
    // one controller per run: the caller's signal and dispose() both abort it
    const controller = new AbortController();
    const forward = (): void => controller.abort(spec.signal?.reason);
    if (spec.signal?.aborted) forward();
    else spec.signal?.addEventListener('abort', forward, { once: true });
    active.add(controller);
    const promise = execute(spec, controller.signal);
    running.add(promise);
    try {
      return await promise;
    } finally {
      active.delete(controller);
      running.delete(promise);
      spec.signal?.removeEventListener('abort', forward);
    }
  };

  const dispose = async (): Promise<void> => {
    disposed = true;
    for (const controller of active) controller.abort(new Error('runtime disposed'));
    await Promise.allSettled([...running, nodeSpares.dispose(), pythonSpares.dispose()]);
    // teardowns that outlived their run's result (a child slow to die) finish before dispose does
    await pendingTeardowns();
  };

  return { resolve, run, warm, dispose };
}
