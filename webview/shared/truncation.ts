import type { RunResult } from '../../runtime/protocol/run-result.js';
import { formatCount } from './format.js';
import type { Translate } from './translate.js';

export interface Truncation {
  // the cap the output hit, when the runtime said which
  bytes: number | undefined;
  // or the number of log entries it hit
  entries?: number;
  // output-limit failures drop the value; the Python log marker keeps running
  source: 'output-limit' | 'log-marker';
}

const OUTPUT_LIMIT = /exceeded (\d+) bytes/;
const ENTRY_LIMIT = /exceeded (\d+) log entries/;
const LOG_MARKER = /log capture truncated at (\d+) bytes\s*$/;

// Whether (and where) the run's printed output was cut, so the renderer can say so explicitly.
export function truncationOf(result: RunResult): Truncation | undefined {
  if (result.error?.kind === 'output-limit') {
    const entries = ENTRY_LIMIT.exec(result.error.message)?.[1];
    if (entries !== undefined) return { bytes: undefined, entries: Number(entries), source: 'output-limit' };
    const match = OUTPUT_LIMIT.exec(result.error.message);
    return { bytes: match?.[1] === undefined ? undefined : Number(match[1]), source: 'output-limit' };
  }
  const last = result.logs[result.logs.length - 1];
  const marker = last === undefined ? null : LOG_MARKER.exec(last);
  if (marker?.[1] !== undefined) return { bytes: Number(marker[1]), source: 'log-marker' };
  return undefined;
}

// "output truncated at 65536 bytes"
export function truncationText(truncation: Truncation, t: Translate): string {
  if (truncation.entries !== undefined)
    return t('output truncated at {0} log entries', formatCount(truncation.entries));
  return truncation.bytes === undefined
    ? t('output truncated at the output cap')
    : t('output truncated at {0} bytes', truncation.bytes);
}
