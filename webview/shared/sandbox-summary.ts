import type { SandboxReport } from '../../runtime/protocol/run-result.js';
import type { Translate } from './translate.js';

export interface SandboxSummary {
  enforcement: SandboxReport['enforcement'];
  // what the sandbox did not take away from the program, in plain words
  missing: string[];
  mechanisms: string[];
}

// Turns the sandbox report into "what is missing": capabilities the program kept (read-only files are the policy).
export function summarizeSandbox(report: SandboxReport, t: Translate): SandboxSummary {
  const missing: string[] = [];
  if (report.network === 'allowed') missing.push(t('network is reachable'));
  if (report.filesystem === 'allowed') missing.push(t('filesystem is writable'));
  if (report.childProcess === 'allowed') missing.push(t('child processes can be started'));
  return { enforcement: report.enforcement, missing, mechanisms: [...report.mechanisms] };
}

// "full", "partial" or "none" in words for people.
export function enforcementText(enforcement: SandboxReport['enforcement'], t: Translate): string {
  return enforcement === 'full' ? t('full') : enforcement === 'partial' ? t('partial') : t('none');
}

// "full via landlock, seccomp" / "partial; network is reachable"
export function sandboxText(report: SandboxReport, t: Translate): string {
  const summary = summarizeSandbox(report, t);
  const level = enforcementText(summary.enforcement, t);
  // mechanism names (bubblewrap, landlock, seccomp) are names, not words
  const via = summary.mechanisms.length > 0 ? t('{0} via {1}', level, summary.mechanisms.join(', ')) : level;
  return summary.missing.length > 0 ? t('{0}; {1}', via, summary.missing.join(', ')) : via;
}
