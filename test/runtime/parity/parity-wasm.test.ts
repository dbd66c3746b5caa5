import { parityRows } from './parity-suite.js';

// The shared behaviour table on the WebAssembly engines (quickjs, pyodide): every row holds as on the native engines,
// or names the documented difference it expects instead (behaviour-table.ts, docs/sandbox.md).
parityRows('wasm');
