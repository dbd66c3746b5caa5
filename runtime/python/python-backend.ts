import type { CodeRunSpec } from '../api.js';
import { failedBeforeSpawn } from '../engine/early-results.js';
import type { RunResult } from '../protocol/run-result.js';
import type { SandboxCapabilities } from '../sandbox/probe.js';

export interface PythonBackendDeps {
  caps: SandboxCapabilities;
  pythonPath: string | undefined;
}

// Replaced by the CPython backend (issue 3); until then Python runs report that the backend is missing.
export async function runPythonProgram(spec: CodeRunSpec, _deps: PythonBackendDeps): Promise<RunResult> {
  return failedBeforeSpawn(spec, { network: 'allowed', filesystem: 'allowed', childProcess: 'allowed', enforcement: 'none', mechanisms: [] }, {
    kind: 'worker-exit',
    message: 'the Python backend is not available in this build',
  });
}
