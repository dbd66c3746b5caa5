import type { SandboxReport } from '../protocol/run-result.js';
import type { WasmVerdict } from './wasm-proof.js';

// A wasm engine's sandbox report: its own boundary (full once its probe saw every way out refused), with whatever
// OS layers also hold around its child listed as mechanisms of a second layer.
export function wasmReport(
  os: SandboxReport,
  mechanism: string,
  engine: 'quickjs' | 'pyodide',
  verdict: WasmVerdict,
): SandboxReport {
  return {
    // unproven, the wasm boundary claims nothing: what the OS layers hold is what holds
    network: verdict.ok ? 'denied' : os.network,
    filesystem: verdict.ok ? 'denied' : os.filesystem,
    childProcess: verdict.ok ? 'denied' : os.childProcess,
    enforcement: verdict.ok ? 'full' : 'partial',
    mechanisms: [mechanism, ...os.mechanisms],
    ...(verdict.ok ? {} : { missing: [`the ${engine} engine's isolation was not proven: ${verdict.problem}`] }),
    engine,
    isolation: 'wasm',
  };
}
