import type { JsonValue } from '../../runtime/protocol/json-value.js';
import type { CallRecord, Language, RunResult } from '../../runtime/protocol/run-result.js';
import type { InspectorRun } from '../protocol/inspector-messages.js';

// One recorded call as a cassette file holds it (runtime/replay/cassette-format.ts), already validated by the host.
export interface CassetteCallLike {
  global: string;
  name: string;
  args: JsonValue;
  ok: boolean;
  value?: JsonValue | undefined;
  message?: string | undefined;
  pending?: true | undefined;
  schemaViolation?: string | undefined;
  durationMs: number;
}

export interface CassetteRunOptions {
  id: string;
  // e.g. the file name: "cell-3.cassette.json"
  label: string;
  calls: readonly CassetteCallLike[];
  language: Language;
  createdAt?: string | undefined;
}

// Stands in for the call's recorded error message (data the diff compares across runs), so it is never translated.
export const PENDING_MESSAGE = 'pending: the recorded run ended before this call was answered';

// One recorded call (a cassette's or a transcript's) as the call record the views draw: a pending call failed with
// PENDING_MESSAGE, an answered one with its value (null when none was recorded) or its message.
export function recordedCall(
  c: Omit<CassetteCallLike, 'schemaViolation' | 'durationMs'>,
  at: { id: number; startedAtMs: number; durationMs: number },
): CallRecord {
  const call: CallRecord = {
    id: at.id,
    global: c.global,
    name: c.name,
    args: c.args,
    ok: c.ok && c.pending !== true,
    startedAtMs: at.startedAtMs,
    durationMs: at.durationMs,
  };
  if (c.pending === true) call.message = PENDING_MESSAGE;
  else if (c.ok) call.value = c.value ?? null;
  else call.message = c.message ?? '';
  return call;
}

// The sandbox of a run that never ran here (a cassette's, a transcript's): none applied.
export function nothingRanSandbox(): RunResult['sandbox'] {
  return { network: 'denied', filesystem: 'denied', childProcess: 'denied', enforcement: 'none', mechanisms: [] };
}

// A cassette as an inspector run: its calls laid end to end in recorded order (a cassette keeps no start times),
// no output, value or sandbox. The inspector shows such runs as "calls only" and can diff them against cell runs.
export function cassetteRun(options: CassetteRunOptions): InspectorRun {
  let at = 0;
  const calls: CallRecord[] = options.calls.map((c, i) => {
    const call = recordedCall(c, { id: i + 1, startedAtMs: at, durationMs: c.durationMs });
    if (c.schemaViolation !== undefined) call.schemaViolation = c.schemaViolation;
    at += c.durationMs;
    return call;
  });
  const result: RunResult = {
    language: options.language,
    logs: [],
    calls,
    // nothing ran: no sandbox applied, which the inspector does not present as a finding for cassettes
    sandbox: nothingRanSandbox(),
    durationMs: at,
  };
  return {
    id: options.id,
    label: options.label,
    source: 'cassette',
    ...(options.createdAt === undefined ? {} : { createdAt: options.createdAt }),
    payload: { result, language: options.language },
  };
}
