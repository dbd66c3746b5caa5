// The pyodide engine's core, free of Node APIs (the Node child in child.ts wraps it; a web worker can too): loads one
// Pyodide interpreter, takes its bridges to JavaScript away, and runs one program through python/ptc_pyodide.py.
// JavaScript only ever calls into Python with strings and reads strings back: no JavaScript object is handed to the
// guest, so there is none for it to walk from.
import type { loadPyodide as LoadPyodide, PyodideAPI } from 'pyodide';

// The guest runner and the CPython runner's modules it reuses (python/), by module name.
export const GUEST_MODULES = [
  'ptc_errors',
  'ptc_json',
  'ptc_logs',
  'ptc_bindings',
  'ptc_wire',
  'ptc_program',
  'ptc_determinism',
  'ptc_pyodide',
] as const;
export type GuestModuleName = (typeof GUEST_MODULES)[number];

// One call into the guest: the frames to send (node-wire/program-wire JSON text, hostile until parsed), and when to
// pump again (ms until the next timer; null when only a reply can wake it) or the exit code the program asked for.
export type GuestStep = { frames: string[]; next: number | null } | { frames: string[]; exit: number };

export interface GuestOptions {
  // the caller's loader: the `pyodide` package's loadPyodide, however it was bundled
  loadPyodide: typeof LoadPyodide;
  // where pyodide.asm.wasm, pyodide.asm.js, python_stdlib.zip and pyodide-lock.json are (a folder path or URL)
  indexURL: string;
  // the Python sources of GUEST_MODULES
  modules: Readonly<Record<GuestModuleName, string>>;
  // text the interpreter writes to its own file descriptors 1 and 2 (not sys.stdout, which is the ledger's)
  rawOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  // false only for the tests' controls, which show each attack succeeding without it
  lockdown?: boolean;
  // a memory snapshot (makeGuestSnapshot's bytes, from this Pyodide build and these modules): the interpreter starts
  // from it, the runner already imported, instead of booting CPython and importing it again
  snapshot?: Uint8Array;
}

export interface PyodideGuest {
  // starts the program of a node-wire boot frame (JSON text); once per guest
  start(bootText: string): GuestStep;
  // a reply or bindings-lost frame from the host, then whatever it made ready
  reply(frameText: string): GuestStep;
  // runs what is due (a timer fired)
  pump(): GuestStep;
  // bounds the interpreter's WebAssembly memory (bytes; undefined lifts the bound)
  setMemoryLimit(bytes: number | undefined): void;
  // the modules lockdown removed, comma-separated (for the report and tests)
  readonly removed: string;
}

type PyCallable = ((...args: string[]) => unknown) & { destroy?: () => void };

// Emscripten internals the lockdown replaces (present in Pyodide's module object, typed loosely by Pyodide)
interface EmscriptenModule {
  FS: { mount: unknown; ErrnoError: new (errno: number) => Error; filesystems?: Record<string, unknown> };
  NODEFS?: { mount: unknown };
  SOCKFS?: { websocket_sock_ops?: Record<string, unknown> };
  ERRNO_CODES?: Record<string, number>;
}

interface WasmMemory {
  buffer: ArrayBuffer;
  grow(delta: number): number;
}

const WASM_PAGE = 65536;
let memoryLimit: number | undefined;
let growGuarded = false;

// The interpreter's memory grows through WebAssembly.Memory.prototype.grow: past the limit the growth fails, so
// malloc returns NULL and the program sees MemoryError (Emscripten catches the refusal).
function guardMemoryGrowth(): void {
  if (growGuarded) return;
  growGuarded = true;
  // typed here: the runtime's TypeScript library has no WebAssembly values
  const wasm = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly;
  const proto = wasm.Memory.prototype;
  const grow = proto.grow;
  Object.defineProperty(proto, 'grow', {
    value: function guardedGrow(this: WasmMemory, delta: number): number {
      if (memoryLimit !== undefined && this.buffer.byteLength + delta * WASM_PAGE > memoryLimit)
        throw new RangeError('the pyodide engine reached its memory limit');
      return grow.call(this, delta);
    },
    writable: true,
    configurable: true,
  });
}

function parseStep(text: unknown): GuestStep {
  const lines = String(text).split('\n');
  const header = JSON.parse(lines[0] ?? '{}') as { next?: number | null; exit?: number };
  const frames = lines.slice(1).filter((line) => line.length > 0);
  if (typeof header.exit === 'number') return { frames, exit: header.exit };
  return { frames, next: typeof header.next === 'number' ? header.next : null };
}

function refuse(what: string): () => never {
  return () => {
    throw new Error(`${what} is not available in the pyodide engine`);
  };
}

// Pyodide's JavaScript side: no file system mounts (NODEFS reads the host's files), no sockets (Emscripten's
// sockets are WebSockets to the host's ports), no package loading, no JavaScript module registry entries.
function lockJavaScriptSide(pyodide: PyodideAPI): void {
  const api = pyodide as unknown as Record<string, unknown> & { _module: EmscriptenModule };
  for (const name of ['js', 'pyodide_js']) {
    try {
      pyodide.unregisterJsModule(name);
    } catch {
      // not registered: nothing to take away
    }
  }
  for (const name of ['mountNodeFS', 'mountNativeFS', 'loadPackage', 'loadPackagesFromImports', 'registerJsModule'])
    api[name] = refuse(name);
  const module = api._module;
  const errno = module.ERRNO_CODES ?? {};
  const ErrnoError = module.FS.ErrnoError;
  const failWith = (code: number | undefined) => () => {
    throw new ErrnoError(code ?? 63);
  };
  module.FS.mount = failWith(errno.EPERM);
  if (module.NODEFS !== undefined) module.NODEFS.mount = failWith(errno.EPERM);
  const sockets = module.SOCKFS?.websocket_sock_ops;
  if (sockets !== undefined) {
    sockets.createPeer = failWith(errno.ECONNREFUSED);
    sockets.listen = failWith(errno.EACCES);
  }
}

// One interpreter with the guest runner imported (booted, or started from a snapshot that already holds it).
async function loadRunner(
  options: GuestOptions,
  jsglobals: object,
  snapshot: { make: true } | { load: Uint8Array } | undefined,
): Promise<PyodideAPI> {
  const raw = options.rawOutput ?? (() => undefined);
  const pyodide = await options.loadPyodide({
    indexURL: options.indexURL,
    jsglobals,
    env: { HOME: '/home/pyodide' },
    packages: [],
    fullStdLib: false,
    stdin: () => null,
    stdout: (text) => raw('stdout', `${text}\n`),
    stderr: (text) => raw('stderr', `${text}\n`),
    ...(snapshot === undefined ? {} : 'make' in snapshot ? { _makeSnapshot: true } : { _loadSnapshot: snapshot.load }),
  });
  // the file system is not in the snapshot's memory: modules the runner imports only when a run needs them
  // (ptc_determinism under ptc test) must be there after a restore too
  pyodide.FS.mkdirTree('/ptc');
  for (const name of GUEST_MODULES) pyodide.FS.writeFile(`/ptc/${name}.py`, options.modules[name]);
  if (snapshot !== undefined && 'load' in snapshot) return pyodide;
  pyodide.runPython("import sys\nsys.path.insert(0, '/ptc')\nimport ptc_pyodide");
  return pyodide;
}

// The memory of a fresh interpreter with the guest runner imported and nothing run: loadGuest's `snapshot`. Taken
// before the lockdown, which every interpreter started from it runs again: Pyodide's restore re-imports the very
// modules (`_pyodide_core`, `pyodide.ffi`) the lockdown removes and refuses.
export async function makeGuestSnapshot(options: Omit<GuestOptions, 'snapshot' | 'lockdown'>): Promise<Uint8Array> {
  const pyodide = await loadRunner(options, Object.create(null) as object, { make: true });
  return pyodide.makeMemorySnapshot();
}

// Loads one interpreter ready for one program: the guest runner imported, asyncio loaded, the bridges removed.
export async function loadGuest(options: GuestOptions): Promise<PyodideGuest> {
  guardMemoryGrowth();
  // the `js` module is an empty object, never the embedding's global object (Pyodide's default, kept for the controls)
  const jsglobals = options.lockdown === false ? globalThis : (Object.create(null) as object);
  const global = globalThis as Record<string, unknown>;
  const hadRequire = 'require' in global;
  const pyodide = await loadRunner(
    options,
    jsglobals,
    options.snapshot === undefined ? undefined : { load: options.snapshot },
  );
  const runner = pyodide.pyimport('ptc_pyodide') as unknown as Record<string, PyCallable>;
  const call = (name: string): PyCallable => {
    const fn = runner[name];
    if (typeof fn !== 'function') throw new Error(`the guest runner has no ${name}`);
    return fn;
  };
  const start = call('start');
  const reply = call('reply');
  const pump = call('pump');
  const lockdown = call('lockdown');
  let removed = '';
  if (options.lockdown !== false) {
    removed = String(lockdown());
    lockJavaScriptSide(pyodide);
    // in Node, Pyodide puts a `require` of fs, crypto, ws and child_process on the global object: nothing loads after
    // this
    if (!hadRequire) delete global.require;
  }
  let started = false;
  return {
    start: (bootText) => {
      if (started) throw new Error('a pyodide guest runs one program');
      started = true;
      return parseStep(start(bootText));
    },
    reply: (frameText) => {
      reply(frameText);
      return parseStep(pump());
    },
    pump: () => parseStep(pump()),
    setMemoryLimit: (bytes) => {
      memoryLimit = bytes;
    },
    removed,
  };
}
