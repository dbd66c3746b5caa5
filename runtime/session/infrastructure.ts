import type { CallRecord, RunResult } from '../protocol/run-result.js';

// A failed call's message that says the machinery failed, not the tool: the bindings host gone (HostedRun.lose),
// an MCP server lost or never started (runtime/bindings/mcp/mcp-server.ts words them).
const INFRASTRUCTURE_CALL =
  /^(bindings host |the connection to the MCP server of |MCP server of .* (could not start|was stopped))/;

// Why a run's outcome says more about this machine than about the program (the bindings host lost, the sandbox
// unavailable, an MCP server missing), or undefined. Such a run is never stored as the truth: no cassette, no
// expectation is written from it.
export function infrastructureProblem(result: RunResult, hostLost: string | undefined): string | undefined {
  if (hostLost !== undefined) return `the ${hostLost} during the run`;
  if (result.error?.kind === 'sandbox-unavailable')
    return `the sandbox was unavailable: ${firstLine(result.error.message)}`;
  const calls: CallRecord[] = [...result.calls, ...(result.callSummary?.last ?? [])];
  const call = calls.find((c) => !c.ok && c.message !== undefined && INFRASTRUCTURE_CALL.test(c.message));
  return call === undefined ? undefined : `${call.global}.${call.name}: ${firstLine(call.message ?? '')}`;
}

const firstLine = (text: string): string => text.split('\n', 1)[0] ?? '';
