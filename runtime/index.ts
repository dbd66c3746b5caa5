// Public entry of the VS Code-free runtime core.
import type { CodeRunRequest, CodeRunSpec, Runtime, RuntimeOptions } from './api.js';
import { RuntimeMisuseError } from './contract/misuse.js';
import { tempDirProblemAsync } from './contract/environment.js';
import { isIssuedSpec, resolveRequest } from './contract/resolve.js';
import { failedBeforeSpawn } from './engine/early-results.js';
import type { RunResult } from './protocol/run-result.js';
import { unconfinedReport } from './sandbox/plan.js';
import { runOnEngine, warmOnEngine, type LanguageEngines } from './engine/choose-engine.js';
import { pendingTeardowns } from './engine/fresh-child.js';
import { createPythonBackend } from './python/python-backend.js';
import { createNodeBackend } from './typescript/node-backend.js';
import { QUICKJS_ENGINE } from './wasm/quickjs/quickjs-engine.js';
import { openSession } from './session/session.js';
import type { Session, SessionOptions } from './session/session-types.js';

export type * from './api.js';
export type { JsonValue } from './protocol/json-value.js';
export * from './protocol/run-result.js';
export { RuntimeMisuseError } from './contract/misuse.js';

// Creates a runtime: `resolve` validates a request, `run` executes it in a fresh process, `dispose` stops everything.
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  let disposed = false;
  const active = new Set<AbortController>();
  const running = new Set<Promise<RunResult>>();
  const backendOptions = { runtime: options, spares: options.spares ?? 0 };
  // each language's native engine and its WebAssembly engine (engine/choose-engine.ts picks one per run)
  const engines: Record<CodeRunSpec['language'], LanguageEngines> = {
    typescript: { native: createNodeBackend(backendOptions), wasm: createNodeBackend(backendOptions, QUICKJS_ENGINE), wasmName: 'quickjs' },
    python: { native: createPythonBackend(backendOptions), wasm: undefined, wasmName: 'pyodide' },
  };
  const backends = Object.values(engines).flatMap((e) => (e.wasm === undefined ? [e.native] : [e.native, e.wasm]));

  const resolve = (request: CodeRunRequest): CodeRunSpec => {
    if (disposed) throw new RuntimeMisuseError('runtime is disposed');
    return resolveRequest(request, options);
  };

  const execute = async (spec: CodeRunSpec, signal: AbortSignal): Promise<RunResult> => {
    const scoped: CodeRunSpec = { ...spec, signal };
    // checked per run, not once: the one thing every backend stages before it can start a process
    const environment = signal.aborted ? undefined : await tempDirProblemAsync();
    if (environment !== undefined) return failedBeforeSpawn(scoped, unconfinedReport(), { kind: 'worker-exit', message: environment });
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

// --- the public surface: the CLI (runtime/cli/) and the extension import only from here.
// Where a run goes: createSession() (session/) leases its bindings host (bindings-host/: the process that runs
// the bindings module's handlers) and runs the program on a Runtime (createRuntime above): engine/ supervises a
// fresh child of typescript/ or python/ (one Backend each, engine/backend.ts), whose binding calls go straight to the
// host; replay/ serves a cassette.

// Opens a session: one bindings host (if the session has a bindings module) and how its runs go (session/session.ts).
export function createSession(options: SessionOptions = {}): Session {
  return openSession(options, createRuntime);
}
export type * from './session/session-types.js';
export type { BindingsHost, BindingsHostState, BindingsHostStatus } from './bindings-host/bindings-host.js';
export type { DescribedFunction, DescribedModule, DescribedNamespace } from './bindings-host/wire.js';
export type { WarningSink } from './bindings/module-format.js';
export { LIMITS } from './contract/limits.js';
export { encodeChecked, encodeLossless, decodeLossless } from './json/lossless.js';
export { chunkedSink, forEachSlice, JSON_CHUNK_CHARS, writeJsonText } from './json/json-text.js';
export { tempDirProblem } from './contract/environment.js';
export * from './import/index.js';
export { ImportFailure } from './import/import-error.js';
export type { CallEvent, CallListener, CallStartListener } from './notebook/observe.js';
export { cellLimits } from './notebook/cell-limits.js';
export { describeProblems, parseNotebook, type NotebookProblem } from './notebook/parse.js';
export { CASSETTE_DIR, cassetteName, defaultCassetteDir, resolvePlan, type PlanInput, type PlanOverride } from './notebook/plan.js';
export { prettyJson } from './notebook/pretty-json.js';
export { RawSliceMemory } from './notebook/raw-memory.js';
export { boundSavedOutputs, CELL_OUTPUT_BUDGET_BYTES, fitResult, formatBytes, type FittedResult } from './notebook/output-budget.js';
export * from './notebook/schema.js';
export { serializeNotebook } from './notebook/serialize.js';
export { bindingsPathOf, runNotebookFile, type CellReport, type NotebookRun, type NotebookRunOptions } from './notebook/run-notebook.js';
export { loadCassette, parseCassette, type Cassette, type CassetteLoad } from './replay/index.js';
export { renderSdk, type RenderedSdk, type SdkFunctionSource, type SdkNamespaceSource, type SdkSource } from './sdk/index.js';
export { byCodeUnit } from './sdk/sdk-source.js';
export * from './model/index.js';
export * from './eval/index.js';
export { writeLinesAtomically } from './import/trace-writer.js';
export { makeDirsSync } from './files/make-dirs.js';
export { cacheFolder as bindingsCacheFolder } from './bindings/build-cache.js';
export { inferSchema, learnOutputs, readCassettes, withLearnedOutputs, type CassetteGather, type LearnedOutput } from './sdk/learn-schema.js';
export * from './testing/index.js';
export * from './protocol/expectation-report.js';
