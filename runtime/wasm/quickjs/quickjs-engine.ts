import type { NodeChildEngine } from '../../typescript/node-backend.js';
import { provenWasmEngine, type ProbeDeps } from '../wasm-probe-run.js';
import type { WasmVerdict } from '../wasm-proof.js';
import { wasmReport } from '../wasm-report.js';
import { QUICKJS_MECHANISM, quickjsProbeProgram } from './probe-program.js';

export { QUICKJS_MECHANISM, quickjsProbeProgram };

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

// Probed once per Node executable and bootstrap, then cached for the life of the host.
export function provenQuickjs(deps: ProbeDeps): Promise<WasmVerdict> {
  return provenWasmEngine(QUICKJS_ENGINE, quickjsProbeProgram('/etc/hostname'), deps);
}
