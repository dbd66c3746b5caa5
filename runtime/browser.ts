// The browser-safe part of the runtime's public surface: what the extension's browser entry (vscode.dev) needs to read
// and write `.ptcnb` files, with no Node API behind it. The browser build resolves runtime/index.js to this file, so a
// front-end module that needs anything else fails that build instead of shipping Node code to a browser.
export { LIMITS } from './contract/limits.js';
// the per-model options table the settings hold (zod only)
export { ModelOptionsTableSchema, modelOptionsFor, type ModelOptionsTable } from './eval/tasks.js';
export * from './protocol/run-result.js';
export type { JsonValue } from './protocol/json-value.js';
export { encodeChecked } from './json/lossless.js';
export { errorMessage } from './output/error-message.js';
export { describeProblems, parseNotebook, type NotebookProblem } from './notebook/parse.js';
export { RawSliceMemory } from './notebook/raw-memory.js';
export { serializeNotebook } from './notebook/serialize.js';
export { boundSavedOutputs, fitResult } from './notebook/output-budget.js';
export * from './notebook/schema.js';
export * from './protocol/expectation-report.js';
// the browser's engines: TypeScript cells in a web worker running QuickJS, Python cells in one running Pyodide
// (runtime/wasm/web/)
export { resolveRequest } from './contract/resolve.js';
export { cellLimits } from './session/cell-limits.js';
export { stripLoaded } from './typescript/strip-core.js';
export { WebEngine, type RunWorker, type WebEngineName } from './wasm/web/web-engine.js';
export { loadPyodideAssets, PYODIDE_WEB_FOLDER, type PyodideAssets } from './wasm/web/pyodide-assets.js';
// the browser's bindings: each cell's calls answered from its cassette
export { CASSETTE_SEGMENTS, cassetteName, notebookCassetteFolder } from './notebook/cassette-name.js';
export { parseCassette } from './replay/cassette-text.js';
export { replayFromCassette } from './replay/cassette-replay.js';
// the browser's live bindings: a JSON bindings module's MCP servers over HTTP (the protocol module the desktop uses,
// without its stdio transport)
export { readJsonBindings, resolveBindings, servedNamespaces } from './bindings/module-resolve.js';
export { BindingsModuleError, type BindingsModule } from './bindings/module-format.js';
export type { BindingNamespace } from './api.js';
// the browser's bindings host: a code bindings module in a web worker of its own (runtime/bindings-host/web/), its
// calls in the plan's mode, approvals as the desktop decides them without a person to ask
export { stripModuleLoaded } from './typescript/strip-core.js';
export { WebBindingsHost, type WebHostLease, type WebHostReady } from './bindings-host/web/web-bindings-host.js';
export { planModes } from './session/plan-mode.js';
export { runPauses } from './session/run-pauses.js';
export { argsPathProblem, type RunPauses } from './protocol/call-pause.js';
