import type { CodeRunSpec } from '../../api.js';
import { RunState } from '../../engine/run-state.js';
import { unconfinedReport } from '../../sandbox/plan.js';
import type { SandboxHost } from '../../sandbox/sandbox-host.js';
import { probeSpec } from '../../sandbox/proof.js';
import type { NodeChildEngine } from '../../typescript/node-backend.js';
import { NodeChildProcess } from '../../typescript/node-child-process.js';
import type { NodeExecutable } from '../../typescript/node-executable.js';
import { nodeLaunch } from '../../typescript/node-launch.js';
import { stripProgram } from '../../typescript/strip.js';
import { superviseNodeChild } from '../../typescript/supervise.js';
import { judgeWasmProbe, type WasmVerdict } from '../wasm-proof.js';
import { wasmReport } from '../wasm-report.js';
import { QUICKJS_MECHANISM, quickjsProbeProgram } from './probe-program.js';

export { QUICKJS_MECHANISM, quickjsProbeProgram };

// The quickjs engine: a Node child (same launch, sandbox, spares and supervision as the node engine) whose
// bootstrap runs the program inside QuickJS compiled to WebAssembly.
export const QUICKJS_ENGINE: NodeChildEngine = {
  name: 'quickjs',
  bootstrap: 'runtime/quickjs-child.cjs',
  report: async (plan, _spec, deps) => wasmReport(plan, QUICKJS_MECHANISM, 'quickjs', await provenQuickjs(deps)),
  // the wasm boundary is the sandbox `required` asks for; the OS sandbox stays a second layer where it exists
  osLevel: (level) => (level === 'required' ? 'best-effort' : level),
};

async function prove(deps: { node: NodeExecutable; bootstrapPath: string; host: SandboxHost }): Promise<WasmVerdict> {
  const base = probeSpec('typescript', '/etc/hostname');
  const spec: CodeRunSpec = { ...base, program: quickjsProbeProgram('/etc/hostname') };
  const stripped = await stripProgram(spec.program);
  if (!stripped.ok) return { ok: false, problem: `the probe program did not compile: ${stripped.message}` };
  let child: NodeChildProcess | undefined;
  try {
    // no OS sandbox and no permission model: a refusal is the wasm boundary's alone
    const launch = nodeLaunch({ deps, spec, confinement: { kind: 'none', wrapper: [] }, permission: false });
    child = new NodeChildProcess(launch);
    const result = await superviseNodeChild(
      spec,
      new RunState(spec, unconfinedReport()),
      child,
      stripped.code,
      'quickjs',
    );
    return judgeWasmProbe(result.value, result.error?.message);
  } catch (error) {
    return { ok: false, problem: `the probe could not run: ${(error as Error).message}` };
  } finally {
    await child?.discard();
  }
}

const proven = new Map<string, Promise<WasmVerdict>>();

// Probed once per Node executable and bootstrap, then cached for the life of the host.
export function provenQuickjs(deps: {
  node: NodeExecutable;
  bootstrapPath: string;
  host: SandboxHost;
}): Promise<WasmVerdict> {
  const key = JSON.stringify([deps.node.path, deps.bootstrapPath]);
  let verdict = proven.get(key);
  if (verdict === undefined) {
    verdict = prove(deps);
    proven.set(key, verdict);
  }
  return verdict;
}
