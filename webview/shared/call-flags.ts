import type { CallRecord, RunResult } from '../../runtime/protocol/run-result.js';
import { canonicalJson } from './canonical-json.js';
import { formatCount } from './format.js';
import type { Translate } from './translate.js';

const DIVERGENCE = /^replay divergence:/;

// Ids of calls that found no match in the cassette: listed in `replay.diverged` or rejected with "replay divergence:".
export function divergedCallIds(result: RunResult): Set<number> {
  const ids = new Set<number>();
  const pending = new Map<string, number>();
  for (const d of result.replay?.diverged ?? []) {
    const key = `${d.global}\u0000${d.name}\u0000${canonicalJson(d.args)}`;
    pending.set(key, (pending.get(key) ?? 0) + 1);
  }
  for (const call of keptCalls(result)) {
    if (!call.ok && call.message !== undefined && DIVERGENCE.test(call.message)) {
      ids.add(call.id);
      continue;
    }
    if (pending.size === 0) continue;
    const key = `${call.global}\u0000${call.name}\u0000${canonicalJson(call.args)}`;
    const left = pending.get(key);
    if (left !== undefined && left > 0) {
      ids.add(call.id);
      pending.set(key, left - 1);
    }
  }
  return ids;
}

// The call a failure came from: a failed call whose message the error repeats, else one the error names.
export function failingCall(result: RunResult): CallRecord | undefined {
  const error = result.error;
  if (error === undefined || error.kind !== 'exception') return undefined;
  const failed = keptCalls(result).filter((c) => !c.ok);
  if (failed.length === 0) return undefined;
  const quoted = failed.filter(
    (c) => c.message !== undefined && c.message.length > 0 && error.message.includes(c.message),
  );
  if (quoted.length > 0) return quoted[quoted.length - 1];
  const named = failed.filter((c) => error.message.includes(`${c.global}.${c.name}`));
  return named[named.length - 1];
}

// How many calls the run made (`calls` holds only the first ones when the run has a call summary).
export function callTotal(result: Pick<RunResult, 'calls' | 'callSummary'>): number {
  return result.callSummary?.total ?? result.calls.length;
}

// The calls a result holds in full: all of them, or the first ones and the last few of a summarized run.
export function keptCalls(result: Pick<RunResult, 'calls' | 'callSummary'>): CallRecord[] {
  return result.callSummary === undefined ? result.calls : [...result.calls, ...result.callSummary.last];
}

// Failed calls over the whole run.
export function failedCallCount(result: Pick<RunResult, 'calls' | 'callSummary'>): number {
  const summary = result.callSummary;
  return summary === undefined
    ? result.calls.filter((c) => !c.ok && c.message !== undefined).length
    : summary.byBinding.reduce((n, b) => n + b.failed, 0);
}

// "showing the first 1 000 and the last 20 of 1 000 000 calls": undefined when every call is kept.
export function callSummaryText(result: Pick<RunResult, 'calls' | 'callSummary'>, t: Translate): string | undefined {
  const summary = result.callSummary;
  if (summary === undefined) return undefined;
  return t(
    'showing the first {0} and the last {1} of {2} calls; the {3} in between are counted per binding',
    formatCount(result.calls.length),
    formatCount(summary.last.length),
    formatCount(summary.total),
    formatCount(summary.omitted),
  );
}

// "tools.search"
export function callLabel(call: Pick<CallRecord, 'global' | 'name'>): string {
  return /^[A-Za-z_$][\w$]*$/.test(call.name)
    ? `${call.global}.${call.name}`
    : `${call.global}[${JSON.stringify(call.name)}]`;
}
