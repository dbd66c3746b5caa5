import type { JsonValue } from '../../runtime/protocol/json-value.js';
import type { CallRecord, FailureKind, Language, RunResult } from '../../runtime/protocol/run-result.js';
import type { InspectorRun } from '../protocol/inspector-messages.js';
import { nothingRanSandbox, recordedCall, type CassetteCallLike } from './cassette-run.js';

// What an imported cell's program did in its transcript (`metadata.imported.then`, already validated by the host).
export interface TranscriptOutcomeLike {
  logs: readonly string[];
  stderrLogs?: readonly number[] | undefined;
  value?: JsonValue | undefined;
  error?: { kind: FailureKind; message: string } | undefined;
  // a call as a cassette holds it, without the timing and schema notes a transcript does not record
  calls: readonly Omit<CassetteCallLike, 'schemaViolation' | 'durationMs'>[];
}

export interface TranscriptRunOptions {
  id: string;
  label: string;
  language: Language;
  then: TranscriptOutcomeLike;
  format: string;
  compare: 'stdout' | 'text' | 'model-text' | 'result';
  // "claude-run.json line 42"
  origin: string;
  marks: readonly string[];
}

// The transcript's record as an inspector run ("then"): its calls in recorded order (no timing is known), its output
// and outcome; nothing ran here, so there is no sandbox to report.
export function transcriptRun(options: TranscriptRunOptions): InspectorRun {
  const calls: CallRecord[] = options.then.calls.map((c, i) =>
    recordedCall(c, { id: i + 1, startedAtMs: i, durationMs: 0 }),
  );
  const result: RunResult = {
    language: options.language,
    logs: [...options.then.logs],
    calls,
    sandbox: nothingRanSandbox(),
    durationMs: 0,
  };
  if (options.then.stderrLogs !== undefined && options.then.stderrLogs.length > 0)
    result.stderrLogs = [...options.then.stderrLogs];
  if (options.then.value !== undefined) result.value = options.then.value;
  if (options.then.error !== undefined)
    result.error = { kind: options.then.error.kind, message: options.then.error.message };
  return {
    id: options.id,
    label: options.label,
    source: 'transcript',
    payload: { result, language: options.language },
    transcript: { format: options.format, compare: options.compare, origin: options.origin, marks: [...options.marks] },
  };
}
