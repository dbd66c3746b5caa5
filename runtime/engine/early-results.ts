import type { CodeRunSpec } from '../api.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import { RunState } from './run-state.js';

// A result for runs that end before any process starts (abort, sandbox-unavailable, strip failure).
export function failedBeforeSpawn(spec: CodeRunSpec, sandbox: SandboxReport, failure: RunFailure): RunResult {
  const session = new RunState(spec, sandbox);
  session.fail(failure);
  return { ...session.result(), started: false };
}

// The abort diagnostic is String(signal.reason), guarded against reasons that refuse to render.
export function abortMessage(signal: AbortSignal | undefined): string {
  try {
    const reason: unknown = signal?.reason;
    if (reason instanceof Error) return reason.message.length > 0 ? reason.message : reason.name;
    return reason === undefined ? 'aborted' : String(reason);
  } catch {
    return '<unrenderable abort reason>';
  }
}
