import { parityRows } from './parity-suite.js';

// The shared behaviour table on the native engines (node, cpython); parity-wasm.test.ts runs it on quickjs and pyodide.
parityRows('native');
