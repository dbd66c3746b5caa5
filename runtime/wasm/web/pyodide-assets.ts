import { errorMessage } from '../../output/error-message.js';
// Pyodide's core files as the browser's pyodide workers receive them: read once per extension host from the
// extension's own folder (the VSIX ships them for the desktop's pyodide engine too), the WebAssembly module compiled
// once and handed to every worker (a compiled module is shared, not compiled again), the rest as bytes and text.
// Needs nothing from Node.

// Where the files are, inside the extension (scripts/build-extension.mjs copies them there)
export const PYODIDE_WEB_FOLDER = ['dist', 'node_modules', 'pyodide'] as const;

// The one message a pyodide worker reads before it loads its interpreter (structured-cloned, not JSON).
export interface PyodideAssets {
  type: 'pyodide-assets';
  // a WebAssembly.Module of pyodide.asm.wasm (typed loosely: the runtime's library has no WebAssembly types)
  module: object;
  // pyodide.asm.js: the Emscripten loader that defines _createPyodideModule
  asmJs: string;
  // python_stdlib.zip
  stdlib: Uint8Array<ArrayBuffer>;
  // pyodide-lock.json
  lock: string;
}

interface Compiler {
  compile(bytes: Uint8Array): Promise<object>;
}

// Reads and compiles the files; rejects naming the file that could not be read.
export async function loadPyodideAssets(
  read: (file: string) => Promise<Uint8Array<ArrayBuffer>>,
): Promise<PyodideAssets> {
  const named = (file: string): Promise<Uint8Array<ArrayBuffer>> =>
    read(file).catch((error: unknown) => {
      throw new Error(`${PYODIDE_WEB_FOLDER.join('/')}/${file} could not be read: ${errorMessage(error)}`);
    });
  const wasm = (globalThis as unknown as { WebAssembly: Compiler }).WebAssembly;
  const [module, asmJs, stdlib, lock] = await Promise.all([
    named('pyodide.asm.wasm').then((bytes) => wasm.compile(bytes)),
    named('pyodide.asm.js').then((bytes) => new TextDecoder().decode(bytes)),
    named('python_stdlib.zip'),
    named('pyodide-lock.json').then((bytes) => new TextDecoder().decode(bytes)),
  ]);
  return { type: 'pyodide-assets', module, asmJs, stdlib, lock };
}
