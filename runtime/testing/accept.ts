import type { RunResult } from '../protocol/run-result.js';
import { callsOf } from './check.js';
import type { Expectation } from './expectation.js';

// The expectation a run would pass: the value, logs, failure and calls it produced. An earlier expectation's match
// modes, masks and skip are kept, so accepting again only refreshes what is expected.
export function expectationFromResult(result: RunResult, previous?: Expectation): Expectation {
  const out: Expectation = {
    value: { match: previous?.value?.match ?? 'exact', ...(result.value === undefined ? {} : { is: result.value }), ...maskOf(previous?.value?.mask) },
    logs: { match: previous?.logs?.match ?? 'exact', is: [...result.logs], ...maskOf(previous?.logs?.mask) },
    error: {
      match: previous?.error?.match ?? 'exact',
      is: result.error === undefined ? null : { kind: result.error.kind, message: result.error.message },
    },
    calls: { match: previous?.calls?.match ?? 'exact', is: callsOf(result), ...maskOf(previous?.calls?.mask) },
  };
  if (previous?.skip !== undefined) out.skip = previous.skip;
  return out;
}

function maskOf(mask: string[] | undefined): { mask?: string[] } {
  return mask === undefined || mask.length === 0 ? {} : { mask: [...mask] };
}
