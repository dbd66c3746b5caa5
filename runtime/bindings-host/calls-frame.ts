import type { FinishedCall, StartedCall } from './wire.js';

// A `calls` report checked by hand: it is the one frame that arrives all the time (thousands of entries a second),
// where zod's generic object walk costs the runtime more than the rest of the report's handling. Same rules as
// FromHostFrameSchema's `calls` member (wire.ts), checked by the same tests.
export type CallsFrame = { type: 'calls'; run: number; started?: StartedCall[]; finished?: FinishedCall[] };

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const positiveInt = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const only = (object: Record<string, unknown>, keys: ReadonlySet<string>): boolean => Object.keys(object).every((key) => keys.has(key));

const FRAME_KEYS = new Set(['type', 'run', 'started', 'finished']);
const STARTED_KEYS = new Set(['id', 'global', 'name', 'args', 'startedAtMs']);
const FINISHED_KEYS = new Set(['id', 'ok', 'value', 'message', 'durationMs', 'schemaViolation', 'errorCode', 'errorData', 'progress', 'progressCount']);
const MARK_KEYS = new Set(['atMs', 'progress', 'total', 'message']);

function progressMark(value: unknown): boolean {
  if (!isObject(value) || !only(value, MARK_KEYS)) return false;
  if (typeof value.atMs !== 'number' || value.atMs < 0 || typeof value.progress !== 'number') return false;
  return (value.total === undefined || typeof value.total === 'number') && (value.message === undefined || typeof value.message === 'string');
}

function startedCall(value: unknown): value is StartedCall {
  if (!isObject(value) || !only(value, STARTED_KEYS)) return false;
  return (
    positiveInt(value.id) && typeof value.global === 'string' && typeof value.name === 'string' && 'args' in value && typeof value.startedAtMs === 'number'
  );
}

function finishedCall(value: unknown): value is FinishedCall {
  if (!isObject(value) || !only(value, FINISHED_KEYS)) return false;
  if (!positiveInt(value.id) || typeof value.ok !== 'boolean' || typeof value.durationMs !== 'number' || value.durationMs < 0) return false;
  if (value.message !== undefined && typeof value.message !== 'string') return false;
  if (value.errorCode !== undefined && typeof value.errorCode !== 'number' && typeof value.errorCode !== 'string') return false;
  if (value.progress !== undefined && (!Array.isArray(value.progress) || !value.progress.every(progressMark))) return false;
  if (value.progressCount !== undefined && (typeof value.progressCount !== 'number' || !Number.isSafeInteger(value.progressCount) || value.progressCount < 0))
    return false;
  return value.schemaViolation === undefined || typeof value.schemaViolation === 'string';
}

// The report, or a reason it is malformed (the value was already decoded as lossless JSON).
export function parseCallsFrame(value: Record<string, unknown>): { ok: true; frame: CallsFrame } | { ok: false; message: string } {
  if (!only(value, FRAME_KEYS) || !positiveInt(value.run)) return { ok: false, message: 'malformed calls report' };
  const { started, finished } = value;
  if (started !== undefined && (!Array.isArray(started) || !started.every(startedCall))) return { ok: false, message: 'malformed started call in a report' };
  if (finished !== undefined && (!Array.isArray(finished) || !finished.every(finishedCall)))
    return { ok: false, message: 'malformed finished call in a report' };
  return { ok: true, frame: value as CallsFrame };
}
