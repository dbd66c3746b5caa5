import path from 'node:path';
import { locateAsset } from '../../assets/locate.js';
import type { NodeChildEngine } from '../../typescript/node-backend.js';
import { provenWasmEngine, type ProbeDeps } from '../wasm-probe-run.js';
import type { WasmVerdict } from '../wasm-proof.js';
import { wasmReport } from '../wasm-report.js';
import { PYODIDE_MECHANISM, pyodideProbeProgram } from './probe-program.js';
import { snapshotFolder } from './snapshot-cache.js';

export { PYODIDE_MECHANISM, pyodideProbeProgram };

// Pyodide's core files (the npm package's, copied to dist/node_modules/pyodide by the build): the child's one folder.
export function pyodideFolder(): string | undefined {
  const wasm = locateAsset('node_modules/pyodide/pyodide.asm.wasm');
  return wasm === undefined ? undefined : path.dirname(wasm);
}

// The pyodide engine: a Node child (same launch, sandbox, spares and supervision as the node engine) whose bootstrap
// runs the Python program inside a fresh Pyodide interpreter.
export const PYODIDE_ENGINE: NodeChildEngine = {
  name: 'pyodide',
  language: 'python',
  bootstrap: 'runtime/pyodide-child.cjs',
  extras: async (found) => {
    const folder = pyodideFolder();
    if (folder === undefined)
      return "the pyodide engine's files (node_modules/pyodide/pyodide.asm.wasm) are missing: run `npm run build`";
    // Pyodide's files with a memory snapshot of a fresh interpreter beside them, where the user's cache allows
    const assetDir = await snapshotFolder({ ...found, pyodideFolder: folder });
    // no eval or Function from strings in the child: a JavaScript object the guest ever reached could not compile code
    // the interpreter's memory is bounded by memoryMb on its own (guest.ts); the heap carries the frames of what the
    // program prints and returns (up to maxOutputBytes, as UTF-16 and copies), and the cgroup bounds both
    return { assetDir, flags: ['--disallow-code-generation-from-strings'], heapMb: (memoryMb) => memoryMb + 256 };
  },
  report: async (plan, _spec, deps) => wasmReport(plan, PYODIDE_MECHANISM, 'pyodide', await provenPyodide(deps)),
  // the wasm boundary is the sandbox `required` asks for; the OS sandbox stays a second layer where it exists
  osLevel: (level) => (level === 'required' ? 'best-effort' : level),
};

// Probed once per Node executable and bootstrap, then cached for the life of the host.
export function provenPyodide(deps: ProbeDeps): Promise<WasmVerdict> {
  return provenWasmEngine(PYODIDE_ENGINE, pyodideProbeProgram('/etc/hostname'), deps);
}
