import type { NodeChildEngine } from '../../typescript/node-backend.js';
import { provenWasmEngine, type ProbeDeps } from '../wasm-probe-run.js';
import type { WasmVerdict } from '../wasm-proof.js';
import { wasmReport } from '../wasm-report.js';

export const QUICKJS_MECHANISM = 'quickjs (WebAssembly; no host objects, files, network or processes)';

// The quickjs engine: a Node child (same launch, sandbox, spares and supervision as the node engine) whose
// bootstrap runs the program inside QuickJS compiled to WebAssembly.
export const QUICKJS_ENGINE: NodeChildEngine = {
  name: 'quickjs',
  language: 'typescript',
  bootstrap: 'runtime/quickjs-child.cjs',
  report: async (plan, _spec, deps) => wasmReport(plan, QUICKJS_MECHANISM, 'quickjs', await provenQuickjs(deps)),
  // the wasm boundary is the sandbox `required` asks for; the OS sandbox stays a second layer where it exists
  osLevel: (level) => (level === 'required' ? 'best-effort' : level),
};

// Every way out the probe tries from inside QuickJS: Node's and QuickJS's own (std/os modules), the web's, and
// host objects reached through globals, constructors and the bindings' functions.
export function quickjsProbeProgram(secret: string): string {
  const s = JSON.stringify(secret);
  return `
const refused: Record<string, boolean> = {};
const g: any = globalThis;
async function attempt(name: string, action: () => unknown): Promise<void> {
  try {
    await action();
    refused[name] = false;
  } catch {
    refused[name] = true;
  }
}
const load = (name: string) => import(name);
await attempt('read-outside:require', () => g.require('fs').readFileSync(${s}));
await attempt('read-outside:import', async () => (await load('node:fs')).readFileSync(${s}));
await attempt('read-outside:std', async () => (await load('std')).loadFile(${s}).length);
await attempt('read-outside:process-binding', () => g.process.binding('fs'));
await attempt('write-outside:require', () => g.require('fs').writeFileSync('/tmp/ptc-wasm-probe', 'x'));
await attempt('write-outside:os', async () => (await load('os')).open('/tmp/ptc-wasm-probe', 0o101));
await attempt('network:fetch', () => g.fetch('http://127.0.0.1:9/'));
await attempt('network:xhr', () => new g.XMLHttpRequest());
await attempt('network:websocket', () => new g.WebSocket('ws://127.0.0.1:9/'));
await attempt('network:net', async () => (await load('node:net')).connect(9, '127.0.0.1'));
await attempt('spawn:child-process', async () => (await load('node:child_process')).spawnSync('true'));
await attempt('spawn:os-exec', async () => (await load('os')).exec(['true']));
await attempt('spawn:process', () => g.process.dlopen({}, '/lib/x'));
await attempt('host-object:process', () => Function('return process')().pid);
await attempt('host-object:constructor', () => console.log.constructor('return process')().pid);
await attempt('host-object:webassembly', () => new g.WebAssembly.Memory({ initial: 1 }));
await attempt('host-object:global-this', () => {
  if (Function('return this')() !== globalThis) return;
  const extra = Object.getOwnPropertyNames(globalThis).filter((name) => !ALLOWED.has(name));
  if (extra.length === 0) throw new Error('only the language and the prelude');
});
return { refused };`.replace('const load', `const ALLOWED = new Set(${JSON.stringify(QUICKJS_GLOBALS)});\nconst load`);
}

// The global names a QuickJS context has (ECMAScript intrinsics, QuickJS's own extras) plus the prelude's timers.
const QUICKJS_GLOBALS = [
  ...[
    'Object',
    'Function',
    'Array',
    'Number',
    'parseFloat',
    'parseInt',
    'Infinity',
    'NaN',
    'undefined',
    'decodeURI',
    'decodeURIComponent',
  ],
  ...[
    'encodeURI',
    'encodeURIComponent',
    'escape',
    'unescape',
    'isFinite',
    'isNaN',
    'globalThis',
    'Boolean',
    'String',
    'Symbol',
    'Date',
  ],
  ...[
    'Error',
    'EvalError',
    'RangeError',
    'ReferenceError',
    'SyntaxError',
    'TypeError',
    'URIError',
    'InternalError',
    'AggregateError',
  ],
  ...[
    'Math',
    'JSON',
    'Reflect',
    'RegExp',
    'Proxy',
    'Map',
    'Set',
    'WeakMap',
    'WeakSet',
    'WeakRef',
    'FinalizationRegistry',
    'Promise',
  ],
  ...[
    'ArrayBuffer',
    'SharedArrayBuffer',
    'Atomics',
    'DataView',
    'Uint8ClampedArray',
    'Int8Array',
    'Uint8Array',
    'Int16Array',
    'Uint16Array',
  ],
  ...[
    'Int32Array',
    'Uint32Array',
    'BigInt64Array',
    'BigUint64Array',
    'Float16Array',
    'Float32Array',
    'Float64Array',
    'BigInt',
    'eval',
  ],
  ...[
    'Iterator',
    'performance',
    'console',
    'queueMicrotask',
    'structuredClone',
    'setTimeout',
    'setInterval',
    'clearTimeout',
    'clearInterval',
  ],
  ...[
    'navigator',
    'DOMException',
    'Generator',
    'AsyncGenerator',
    'AsyncFunction',
    'GeneratorFunction',
    'AsyncGeneratorFunction',
  ],
];

// Probed once per Node executable and bootstrap, then cached for the life of the host.
export function provenQuickjs(deps: ProbeDeps): Promise<WasmVerdict> {
  return provenWasmEngine(QUICKJS_ENGINE, quickjsProbeProgram('/etc/hostname'), deps);
}
