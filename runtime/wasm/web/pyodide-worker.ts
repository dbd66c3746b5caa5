// Entry of the browser's pyodide worker (built by scripts/build-web-extension.mjs, embedded in the web extension): one
// dedicated web worker per Python run, holding one Pyodide interpreter loaded and locked down by the same core as the
// desktop's pyodide child (../pyodide/guest.ts) and driving the program with the same driver (guest-driver.ts).
// Frames are the Node child's (node-wire.ts) as text messages; the extension's side (web-engine.ts) reads them as
// hostile. The interpreter's files come in one message (pyodide-assets.ts): nothing is fetched from anywhere.
import { loadPyodide } from 'pyodide';
import { decodeLossless } from '../../json/lossless.js';
import { describeThrown, errorFrame } from '../../typescript/child/describe-thrown.js';
import { BUNDLED_GUEST_MODULES } from '../pyodide/guest-modules.js';
import { loadGuest, type PyodideGuest } from '../pyodide/guest.js';
import { driveGuest, type GuestDrive } from '../pyodide/guest-driver.js';
import type { PyodideAssets } from './pyodide-assets.js';

interface WorkerScope {
  postMessage(message: string): void;
  close(): void;
  importScripts(url: string): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  fetch: (input: unknown) => Promise<Response>;
}
interface WasmApi {
  instantiate(module: object, imports: object): Promise<object>;
  instantiateStreaming: (source: unknown, imports: object) => Promise<{ module: object; instance: object }>;
}
const scope = globalThis as unknown as WorkerScope;
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
const post = scope.postMessage.bind(scope);
const close = scope.close.bind(scope);
const MiB = 1024 * 1024;
// Pyodide's folder as its loader sees it: never fetched, every file of it is answered from the assets message
const INDEX = 'https://pyodide.ptc.invalid/';

let ended = false;
function end(text: string): void {
  if (ended) return;
  ended = true;
  post(text);
  // the extension terminates the worker once it read the frame
  close();
}

// Loads one interpreter from the assets: the Emscripten loader evaluated from its text, Pyodide's fetches of its own
// files answered from memory (anything else refused), and the compiled module instantiated instead of compiled again.
async function loadFromAssets(assets: PyodideAssets): Promise<PyodideGuest> {
  const loaderUrl = URL.createObjectURL(new Blob([assets.asmJs], { type: 'text/javascript' }));
  try {
    scope.importScripts(loaderUrl);
  } finally {
    URL.revokeObjectURL(loaderUrl);
  }
  const files = new Map<string, () => Response>([
    [`${INDEX}python_stdlib.zip`, () => new Response(assets.stdlib)],
    [`${INDEX}pyodide-lock.json`, () => new Response(assets.lock)],
    // read by nothing: the instantiation below takes the compiled module
    [`${INDEX}pyodide.asm.wasm`, () => new Response(new Uint8Array(0))],
  ]);
  const instantiateStreaming = wasm.instantiateStreaming;
  scope.fetch = (input) => {
    const url = String(input instanceof Request ? input.url : input);
    const file = files.get(url);
    return file === undefined
      ? Promise.reject(new TypeError(`${url} is not one of Pyodide's files: the pyodide worker fetches nothing`))
      : Promise.resolve(file());
  };
  wasm.instantiateStreaming = async (_source, imports) => ({
    module: assets.module,
    instance: await wasm.instantiate(assets.module, imports),
  });
  try {
    return await loadGuest({
      loadPyodide,
      indexURL: INDEX,
      modules: BUNDLED_GUEST_MODULES,
      // the interpreter's own descriptors 1 and 2, read as a native child's raw output is (a line a frame)
      rawOutput: (stream, text) => {
        for (const line of text.replace(/\n$/, '').split('\n'))
          post(JSON.stringify({ type: 'log', stream, text: line }));
      },
    });
  } finally {
    // the worker's fetch stays the one above once the interpreter is up (a second layer: the guest reaches no global)
    wasm.instantiateStreaming = instantiateStreaming;
  }
}

let guest: Promise<PyodideGuest> | undefined;
let drive: GuestDrive | undefined;
let booted = false;

scope.onmessage = (event) => {
  const data = event.data as Partial<PyodideAssets> | string | null;
  if (typeof data !== 'string') {
    if (data?.type === 'pyodide-assets' && guest === undefined) {
      guest = loadFromAssets(data as PyodideAssets);
      guest.then(
        () => post('{"type":"ready"}'),
        (error: unknown) =>
          end(
            errorFrame(
              'exception',
              `the pyodide engine could not start in this browser: ${describeThrown(error).message}`,
            ),
          ),
      );
    }
    return;
  }
  const decoded = decodeLossless(data);
  if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object') return;
  const frame = decoded.value as { type?: unknown; memoryMb?: unknown };
  if (frame.type === 'boot' && !booted && guest !== undefined && !ended) {
    booted = true;
    void guest.then((loaded) => {
      if (typeof frame.memoryMb === 'number') loaded.setMemoryLimit(frame.memoryMb * MiB);
      drive = driveGuest(loaded, data, {
        call: post,
        log: post,
        done: end,
        exit: (code) => end(JSON.stringify({ type: 'exit', code })),
        failed: (error) => end(errorFrame('exception', `the pyodide engine failed: ${describeThrown(error).message}`)),
      });
    });
  } else if ((frame.type === 'reply' || frame.type === 'bindings-lost') && drive !== undefined) {
    drive.reply(data);
  }
};
