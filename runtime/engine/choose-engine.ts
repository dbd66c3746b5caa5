import type { CodeRunSpec } from '../api.js';
import type { Language, RunResult, SandboxReport } from '../protocol/run-result.js';
import type { Backend } from './backend.js';
import { unconfinedReport } from '../sandbox/plan.js';
import { failedBeforeSpawn } from './early-results.js';

// One language's engines: the native child under the OS sandbox, and the WebAssembly engine where there is one.
export interface LanguageEngines {
  native: Backend;
  wasm: Backend | undefined;
  // the wasm engine's name, for messages ("quickjs", "pyodide")
  wasmName: string;
}

export type EngineRoute = { backend: Backend; notice?: string } | { problem: string };

// How to get the native sandbox where it is missing, in words for a newcomer.
function remedy(): string {
  if (process.platform === 'linux')
    return 'install bubblewrap (`sudo apt install bubblewrap`, `sudo dnf install bubblewrap`) and allow unprivileged user namespaces; `ptc doctor` shows each layer';
  return `the native sandbox needs Linux with bubblewrap (this is ${process.platform}); \`ptc doctor\` shows each layer`;
}

// Picks the engine of one run: `native` and `wasm` as asked, `auto` native once the OS sandbox proved itself here,
// else the wasm engine with a notice saying what was missing and how to get the native sandbox.
export async function chooseEngine(spec: CodeRunSpec, engines: LanguageEngines): Promise<EngineRoute> {
  if (spec.engine === 'native') return { backend: engines.native };
  if (spec.engine === 'wasm') {
    if (engines.wasm === undefined)
      return {
        problem: `no WebAssembly engine runs ${spec.language} programs in this build (${engines.wasmName} is not available)`,
      };
    return { backend: engines.wasm };
  }
  // `sandbox: off` asked for no isolation at all: the native engine, as before
  if (spec.sandbox === 'off' || engines.wasm === undefined) return { backend: engines.native };
  const problem = await engines.native.osSandboxProblem(spec);
  if (problem === undefined) return { backend: engines.native };
  return {
    backend: engines.wasm,
    notice: `the OS sandbox is not available here (${problem}), so ${spec.language} programs run in the ${engines.wasmName} WebAssembly engine, isolated without it; to run them natively under the OS sandbox: ${remedy()}`,
  };
}

// Runs `spec` on its chosen engine; the result's sandbox report names the engine (and carries auto's notice).
export async function runOnEngine(spec: CodeRunSpec, engines: LanguageEngines): Promise<RunResult> {
  const route = await chooseEngine(spec, engines);
  if ('problem' in route)
    return failedBeforeSpawn(spec, nativeNamed(spec.language, unconfinedReport()), {
      kind: 'sandbox-unavailable',
      message: route.problem,
    });
  const result = await route.backend.run(spec);
  const sandbox = nativeNamed(spec.language, result.sandbox);
  return { ...result, sandbox: route.notice === undefined ? sandbox : { ...sandbox, notice: route.notice } };
}

// A native backend's report names its engine and whether the OS isolates it.
function nativeNamed(language: Language, report: SandboxReport): SandboxReport {
  if (report.engine !== undefined) return report;
  return {
    ...report,
    engine: language === 'python' ? 'cpython' : 'node',
    isolation: report.enforcement === 'none' ? 'none' : 'os',
  };
}

// Starts a spare on the engine the run would choose.
export async function warmOnEngine(spec: CodeRunSpec, engines: LanguageEngines): Promise<boolean> {
  const route = await chooseEngine(spec, engines);
  return 'problem' in route ? false : route.backend.warm(spec);
}
