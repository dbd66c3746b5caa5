import type { CallRecord, FinishedCall, StartedCall } from './binding-call.js';
import type { JsonValue } from './json-value.js';

// The bindings host's `calls` report, read and written by hand: it is the one frame that passes all the time
// (thousands of entries a second), where zod's generic object walk and JSON.stringify of whole objects cost more than
// the rest of its handling. Same rules as StartedCallSchema and FinishedCallSchema (binding-call.ts) and the `calls`
// member of FromHostFrameSchema (bindings-host/wire.ts): test/runtime/protocol/call-report-codec.test.ts holds them
// to it on generated calls.

// --- reading (the runtime reads what the bindings host reports)

export type CallsFrame = { type: 'calls'; run: number; started?: StartedCall[]; finished?: FinishedCall[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const positiveInt = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const only = (object: Record<string, unknown>, keys: ReadonlySet<string>): boolean =>
  Object.keys(object).every((key) => keys.has(key));

const FRAME_KEYS = new Set(['type', 'run', 'started', 'finished']);
const STARTED_KEYS = new Set(['id', 'global', 'name', 'args', 'startedAtMs']);
const FINISHED_KEYS = new Set([
  'id',
  'ok',
  'value',
  'message',
  'durationMs',
  'schemaViolation',
  'errorCode',
  'errorData',
  'progress',
  'progressCount',
]);
const MARK_KEYS = new Set(['atMs', 'progress', 'total', 'message']);

function progressMark(value: unknown): boolean {
  if (!isObject(value) || !only(value, MARK_KEYS)) return false;
  if (typeof value.atMs !== 'number' || value.atMs < 0 || typeof value.progress !== 'number') return false;
  return (
    (value.total === undefined || typeof value.total === 'number') &&
    (value.message === undefined || typeof value.message === 'string')
  );
}

function startedCall(value: unknown): value is StartedCall {
  if (!isObject(value) || !only(value, STARTED_KEYS)) return false;
  return (
    positiveInt(value.id) &&
    typeof value.global === 'string' &&
    typeof value.name === 'string' &&
    'args' in value &&
    typeof value.startedAtMs === 'number'
  );
}

function finishedCall(value: unknown): value is FinishedCall {
  if (!isObject(value) || !only(value, FINISHED_KEYS)) return false;
  if (
    !positiveInt(value.id) ||
    typeof value.ok !== 'boolean' ||
    typeof value.durationMs !== 'number' ||
    value.durationMs < 0
  )
    return false;
  if (value.message !== undefined && typeof value.message !== 'string') return false;
  if (value.errorCode !== undefined && typeof value.errorCode !== 'number' && typeof value.errorCode !== 'string')
    return false;
  if (value.progress !== undefined && (!Array.isArray(value.progress) || !value.progress.every(progressMark)))
    return false;
  if (
    value.progressCount !== undefined &&
    (typeof value.progressCount !== 'number' || !Number.isSafeInteger(value.progressCount) || value.progressCount < 0)
  )
    return false;
  return value.schemaViolation === undefined || typeof value.schemaViolation === 'string';
}

// The report, or a reason it is malformed (the value was already decoded as lossless JSON).
export function parseCallsFrame(
  value: Record<string, unknown>,
): { ok: true; frame: CallsFrame } | { ok: false; message: string } {
  if (!only(value, FRAME_KEYS) || !positiveInt(value.run)) return { ok: false, message: 'malformed calls report' };
  const { started, finished } = value;
  if (started !== undefined && (!Array.isArray(started) || !started.every(startedCall)))
    return { ok: false, message: 'malformed started call in a report' };
  if (finished !== undefined && (!Array.isArray(finished) || !finished.every(finishedCall)))
    return { ok: false, message: 'malformed finished call in a report' };
  return { ok: true, frame: value as CallsFrame };
}

// --- writing (the bindings host reports to the runtime)

// Encodes a payload already known to be lossless JSON (the writer's caller picks how: json/lossless.ts below it).
export type EncodeJson = (value: JsonValue) => string;

// A started call.
export function startedCallText(
  call: { id: number; global: string; name: string; args: JsonValue },
  startedAtMs: number,
  encode: EncodeJson,
): string {
  return `{"id":${call.id},"global":${JSON.stringify(call.global)},"name":${JSON.stringify(call.name)},"args":${encode(call.args)},"startedAtMs":${startedAtMs}}`;
}

// A finished call: `valueText` is the answer's value, already encoded for the reply; the rest is on the record.
export function finishedCallText(
  id: number,
  answer: { ok: true; valueText: string } | { ok: false; message: string },
  record: Pick<CallRecord, 'durationMs' | 'schemaViolation' | 'errorCode' | 'errorData' | 'progress' | 'progressCount'>,
  encode: EncodeJson,
): string {
  const violation =
    record.schemaViolation === undefined ? '' : `,"schemaViolation":${JSON.stringify(record.schemaViolation)}`;
  const outcome = answer.ok
    ? `"ok":true,"value":${answer.valueText}`
    : `"ok":false,"message":${JSON.stringify(answer.message)}`;
  return `{"id":${id},${outcome},"durationMs":${record.durationMs}${violation}${extras(record, encode)}}`;
}

// The rarer fields of a finished call (error details, progress), already lossless JSON on the record.
function extras(
  record: Pick<CallRecord, 'errorCode' | 'errorData' | 'progress' | 'progressCount'>,
  encode: EncodeJson,
): string {
  let out = '';
  if (record.errorCode !== undefined) out += `,"errorCode":${JSON.stringify(record.errorCode)}`;
  if (record.errorData !== undefined) out += `,"errorData":${encode(record.errorData)}`;
  if (record.progress !== undefined)
    out += `,"progress":${JSON.stringify(record.progress)},"progressCount":${record.progressCount ?? record.progress.length}`;
  return out;
}

// One report of a run's started and finished calls, each already written by the functions above.
export function callsReportText(run: number, started: readonly string[], finished: readonly string[]): string {
  const startedPart = started.length === 0 ? '' : `,"started":[${started.join(',')}]`;
  const finishedPart = finished.length === 0 ? '' : `,"finished":[${finished.join(',')}]`;
  return `{"type":"calls","run":${run}${startedPart}${finishedPart}}`;
}
