// Creates a Runtime: the one object that runs programs (engine/ supervises a fresh child of typescript/ or python/,
// one Backend each) — what a session runs its programs on.
import type { CodeRunRequest, CodeRunSpec, Runtime, RuntimeOptions } from './api.js';
import { RuntimeMisuseError } from './contract/misuse.js';
import { tempDirProblemAsync } from './contract/environment.js';
import { isIssuedSpec, resolveRequest } from './contract/resolve.js';
import { failedBeforeSpawn } from './engine/early-results.js';
import type { RunResult } from './protocol/run-result.js';
import { unconfinedReport } from './sandbox/plan.js';
import { runOnEngine, warmOnEngine, type LanguageEngines } from './engine/choose-engine.js';
import { pendingTeardowns } from './engine/fresh-child.js';
import { markPhase } from './engine/phase-marks.js';
import { createPythonBackend } from './python/python-backend.js';
import { createNodeBackend } from './typescript/node-backend.js';
import { PYODIDE_ENGINE } from './wasm/pyodide/pyodide-engine.js';
import { QUICKJS_ENGINE } from './wasm/quickjs/quickjs-engine.js';

// Creates a runtime: `resolve` validates a request, `run` executes it in a fresh process, `dispose` stops everything.
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  let disposed = false;
  const active = new Set<AbortController>();
  const running = new Set<Promise<RunResult>>();
  const backendOptions = { runtime: options, spares: options.spares ?? 0 };
  // each language's native engine and its WebAssembly engine (engine/choose-engine.ts picks one per run)
  const engines: Record<CodeRunSpec['language'], LanguageEngines> = {
    typescript: {
      native: createNodeBackend(backendOptions),
      wasm: createNodeBackend(backendOptions, QUICKJS_ENGINE),
      wasmName: 'quickjs',
    },
    python: {
      native: createPythonBackend(backendOptions),
      wasm: createNodeBackend(backendOptions, PYODIDE_ENGINE),
      wasmName: 'pyodide',
    },
  };
  const backends = Object.values(engines).flatMap((e) => (e.wasm === undefined ? [e.native] : [e.native, e.wasm]));

  const resolve = (request: CodeRunRequest): CodeRunSpec => {
    if (disposed) throw new RuntimeMisuseError('runtime is disposed');
    return resolveRequest(request, options);
  };

  const execute = async (spec: CodeRunSpec, signal: AbortSignal): Promise<RunResult> => {
    const scoped: CodeRunSpec = { ...spec, signal };
    markPhase(scoped, 'start');
    // checked per run, not once: the one thing every backend stages before it can start a process
    const environment = signal.aborted ? undefined : await tempDirProblemAsync();
    markPhase(scoped, 'environment-checked');
    if (environment !== undefined)
      return failedBeforeSpawn(scoped, unconfinedReport(), { kind: 'worker-exit', message: environment });
    return runOnEngine(scoped, engines[spec.language]);
  };

  const warm = async (spec: CodeRunSpec): Promise<boolean> => {
    if (disposed) throw new RuntimeMisuseError('runtime is disposed');
    if (!isIssuedSpec(spec)) throw new RuntimeMisuseError('warm() takes the spec returned by resolve()');
    return warmOnEngine(spec, engines[spec.language]);
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
    await Promise.allSettled([...running, ...backends.map((backend) => backend.dispose())]);
    // teardowns that outlived their run's result (a child slow to die) finish before dispose does
    await pendingTeardowns();
  };

  return { resolve, run, warm, dispose };
}
