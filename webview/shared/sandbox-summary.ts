import type { SandboxReport } from '../../runtime/protocol/run-result.js';

export interface SandboxSummary {
  enforcement: SandboxReport['enforcement'];
  // what the sandbox did not take away from the program, in plain words
  missing: string[];
  mechanisms: string[];
}

// Turns the sandbox report into "what is missing": capabilities the program kept (read-only files are the policy).
export function summarizeSandbox(report: SandboxReport): SandboxSummary {
  const missing: string[] = [];
  if (report.network === 'allowed') missing.push('network is reachable');
  if (report.filesystem === 'allowed') missing.push('filesystem is writable');
  if (report.childProcess === 'allowed') missing.push('child processes can be started');
  return { enforcement: report.enforcement, missing, mechanisms: [...report.mechanisms] };
}

// "full (landlock, seccomp)" / "partial: network is reachable"
export function sandboxText(report: SandboxReport): string {
  const summary = summarizeSandbox(report);
  const via = summary.mechanisms.length > 0 ? ` via ${summary.mechanisms.join(', ')}` : '';
  const gaps = summary.missing.length > 0 ? `; ${summary.missing.join(', ')}` : '';
  return `${summary.enforcement}${via}${gaps}`;
}
