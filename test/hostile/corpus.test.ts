import { registerCorpus } from './lib/corpus-suite.js';

// Every program of the hostile corpus on the runtime's default engines (native; PTC_TEST_ENGINE=wasm|auto for others),
// held to its whole header; corpus-wasm.test.ts runs it on the WebAssembly engines.
await registerCorpus();
