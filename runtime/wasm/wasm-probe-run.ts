import type { CodeRunSpec } from '../api.js';
import { RunState } from '../engine/run-state.js';
import { unconfinedReport } from '../sandbox/plan.js';
import { probeSpec } from '../sandbox/proof.js';
import type { SandboxHost } from '../sandbox/sandbox-host.js';
import type { NodeChildEngine } from '../typescript/node-backend.js';
import { NodeChildProcess } from '../typescript/node-child-process.js';
import type { NodeExecutable } from '../typescript/node-executable.js';
import { nodeLaunch } from '../typescript/node-launch.js';
import { stripProgram } from '../typescript/strip.js';
import { superviseNodeChild } from '../typescript/supervise.js';
import { judgeWasmProbe, type WasmVerdict } from './wasm-proof.js';
import { errorMessage } from '../output/error-message.js';

export interface ProbeDeps {
  node: NodeExecutable;
  bootstrapPath: string;
  host: SandboxHost;
}

// Runs a wasm engine's probe program in its child with no OS sandbox and no permission model, so that every refusal
// is the wasm boundary's alone, and judges what it returned.
async function prove(engine: NodeChildEngine, program: string, deps: ProbeDeps): Promise<WasmVerdict> {
  const spec: CodeRunSpec = { ...probeSpec(engine.language, '/etc/hostname'), program };
  const code = engine.language === 'typescript' ? await stripProgram(program) : { ok: true as const, code: program };
  if (!code.ok) return { ok: false, problem: `the probe program did not compile: ${code.message}` };
  const extras = (await engine.extras?.(deps)) ?? {};
  if (typeof extras === 'string') return { ok: false, problem: extras };
  let child: NodeChildProcess | undefined;
  try {
    const launch = nodeLaunch({ deps, spec, confinement: { kind: 'none', wrapper: [] }, permission: false, extras });
    child = new NodeChildProcess(launch);
    const state = new RunState(spec, unconfinedReport());
    const result = await superviseNodeChild(spec, state, child, code.code, engine.name);
    return judgeWasmProbe(result.value, result.error?.message);
  } catch (error) {
    return { ok: false, problem: `the probe could not run: ${errorMessage(error)}` };
  } finally {
    await child?.discard();
  }
}

const proven = new Map<string, Promise<WasmVerdict>>();

// Probed once per engine, Node executable and bootstrap, then cached for the life of the host.
export function provenWasmEngine(engine: NodeChildEngine, program: string, deps: ProbeDeps): Promise<WasmVerdict> {
  const key = JSON.stringify([engine.name, deps.node.path, deps.bootstrapPath]);
  let verdict = proven.get(key);
  if (verdict === undefined) {
    verdict = prove(engine, program, deps);
    proven.set(key, verdict);
  }
  return verdict;
}
