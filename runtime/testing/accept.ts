import path from 'node:path';
import { cassetteFromResult, saveCassette } from '../replay/index.js';
import type { RunResult } from '../protocol/run-result.js';
import { callsOf } from './check.js';
import type { Expectation } from '../notebook/expectation.js';
import { makeDirsSync } from '../files/make-dirs.js';
import { errorMessage } from '../output/error-message.js';

// The expectation a run would pass: the value, logs, failure and calls it produced. An earlier expectation's match
// modes, masks and skip are kept, so accepting again only refreshes what is expected.
export function expectationFromResult(result: RunResult, previous?: Expectation): Expectation {
  const out: Expectation = {
    value: {
      match: previous?.value?.match ?? 'exact',
      ...(result.value === undefined ? {} : { is: result.value }),
      ...maskOf(previous?.value?.mask),
    },
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

export type RunCassetteWrite = { ok: true; path: string; calls: number } | { ok: false; message: string };

// Accepting a run also keeps what its bindings answered, so `ptc test` can replay it offline. A run that kept only
// part of its calls (more than KEPT_CALLS) cannot be replayed from them, so it is refused, not half-written.
export async function writeRunCassette(file: string, result: RunResult): Promise<RunCassetteWrite> {
  if (result.callSummary !== undefined)
    return {
      ok: false,
      message: `the run made ${result.callSummary.total} calls and kept ${result.calls.length}: record the cell to keep every answer`,
    };
  const cassette = cassetteFromResult(result);
  try {
    makeDirsSync(path.dirname(file));
    await saveCassette(file, cassette);
  } catch (error) {
    return { ok: false, message: `cannot write ${file}: ${errorMessage(error)}` };
  }
  return { ok: true, path: file, calls: cassette.calls.length };
}
