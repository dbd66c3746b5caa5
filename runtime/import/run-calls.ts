import type { CallRecord, RunResult } from '../protocol/run-result.js';

// A result may keep only its first calls one by one plus a summary holding the last ones and the total (a bounded
// call log for runs with very many calls); read structurally, so this works with results that predate the summary.
interface CallSummaryLike {
  total: number;
  omitted: number;
  last: CallRecord[];
}

export interface KeptCalls {
  // every call the result still holds, in issue order
  calls: CallRecord[];
  // calls the run made
  total: number;
  // calls the result only counted
  omitted: number;
}

export function keptCalls(result: Pick<RunResult, 'calls'>): KeptCalls {
  const summary = (result as { callSummary?: CallSummaryLike }).callSummary;
  const head = [...result.calls].sort((a, b) => a.id - b.id);
  if (summary === undefined) return { calls: head, total: head.length, omitted: 0 };
  const tail = [...summary.last].sort((a, b) => a.id - b.id);
  return { calls: [...head, ...tail], total: summary.total, omitted: summary.omitted };
}
