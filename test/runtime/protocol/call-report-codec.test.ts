import { describe, expect, test } from 'vitest';
import { seededRandom } from '../../../runtime/bindings/faults.js';
import { FromHostFrameSchema } from '../../../runtime/bindings-host/wire.js';
import { decodeLossless, encodeChecked } from '../../../runtime/json/lossless.js';
import {
  CallRecordSchema,
  FinishedCallSchema,
  StartedCallSchema,
  type CallRecord,
} from '../../../runtime/protocol/binding-call.js';
import {
  callsReportText,
  finishedCallText,
  parseCallsFrame,
  startedCallText,
} from '../../../runtime/protocol/call-report-codec.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';

// The bindings host's hand-written report writer and the runtime's hand-written reader, held to the one call
// vocabulary (binding-call.ts) on generated calls: what the writer writes the schema accepts and the reader returns
// unchanged, and on every mutation of it the reader rejects exactly what the schema rejects.

const random = seededRandom(25);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const chance = (p: number): boolean => random() < p;

const STRINGS = [
  '',
  'tools',
  'a"b',
  'back\\slash',
  'line\nbreak',
  '\u2028\u2029',
  '\u0000',
  '😀',
  'é'.normalize('NFD'),
  '__proto__',
  'x'.repeat(300),
];
const NUMBERS = [
  0,
  1,
  -1,
  0.5,
  1e-7,
  1e21,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  Number.MIN_VALUE,
  123.456,
];
const IDS = [1, 2, 7, 1000, 2 ** 31, Number.MAX_SAFE_INTEGER];
const TIMES = [0, 0.001, 1.5, 50, 1e9];

function json(depth: number): JsonValue {
  const roll = random();
  if (depth <= 0 || roll < 0.4) return pick<JsonValue>([null, true, false, pick(NUMBERS), pick(STRINGS)]);
  if (roll < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => json(depth - 1));
  const out: Record<string, JsonValue> = {};
  // defined, not assigned: a `__proto__` key stays an own key, as the lossless decoder keeps it
  for (let i = Math.floor(random() * 4); i > 0; i -= 1)
    Object.defineProperty(out, pick(STRINGS), {
      value: json(depth - 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

function deep(depth: number): JsonValue {
  let value: JsonValue = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

type Started = { id: number; global: string; name: string; args: JsonValue; startedAtMs: number };
type Answer = { ok: true; valueText: string; value: JsonValue } | { ok: false; message: string };
type Finished = {
  id: number;
  answer: Answer;
  record: Pick<CallRecord, 'durationMs' | 'schemaViolation' | 'errorCode' | 'errorData' | 'progress' | 'progressCount'>;
};

function started(): Started {
  return {
    id: pick(IDS),
    global: pick(STRINGS),
    name: pick(STRINGS),
    args: chance(0.01) ? deep(5_000) : json(4),
    startedAtMs: chance(0.1) ? -0.25 : pick(TIMES),
  };
}

function finished(): Finished {
  const value = json(3);
  const answer: Answer = chance(0.6)
    ? { ok: true, value, valueText: encodeChecked(value, 0) }
    : { ok: false, message: pick(STRINGS) };
  const record: Finished['record'] = { durationMs: pick(TIMES) };
  if (chance(0.3)) record.schemaViolation = pick(STRINGS);
  if (!answer.ok && chance(0.5)) record.errorCode = chance(0.5) ? pick(NUMBERS) : pick(STRINGS);
  if (!answer.ok && chance(0.5)) record.errorData = json(3);
  if (chance(0.3)) {
    record.progress = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const mark: NonNullable<CallRecord['progress']>[number] = { atMs: pick(TIMES), progress: pick(NUMBERS) };
      if (chance(0.5)) mark.total = pick(NUMBERS);
      if (chance(0.5)) mark.message = pick(STRINGS);
      return mark;
    });
    if (chance(0.5)) record.progressCount = record.progress.length + Math.floor(random() * 100);
  }
  return { id: pick(IDS), answer, record };
}

// What the reader should hand back for a written finished call.
function expectedFinished(f: Finished): Record<string, unknown> {
  const out: Record<string, unknown> = { id: f.id, ok: f.answer.ok };
  if (f.answer.ok) out.value = f.answer.value;
  else out.message = f.answer.message;
  out.durationMs = f.record.durationMs;
  for (const key of ['schemaViolation', 'errorCode', 'errorData', 'progress'] as const)
    if (f.record[key] !== undefined) out[key] = f.record[key];
  if (f.record.progress !== undefined) out.progressCount = f.record.progressCount ?? f.record.progress.length;
  return out;
}

const encode = (value: JsonValue): string => encodeChecked(value, 0);
const text = (value: unknown): string => encodeChecked(value as JsonValue, 0);

function report(): { text: string; run: number; started: Started[]; finished: Finished[] } {
  const s = Array.from({ length: Math.floor(random() * 4) }, started);
  const f = Array.from({ length: Math.floor(random() * 4) }, finished);
  const run = pick(IDS);
  const text = callsReportText(
    run,
    s.map((c) => startedCallText(c, c.startedAtMs, encode)),
    f.map((c) => finishedCallText(c.id, c.answer, c.record, encode)),
  );
  return { text, run, started: s, finished: f };
}

const decode = (text: string): Record<string, unknown> => {
  const decoded = decodeLossless(text);
  if (!decoded.ok) throw new Error(`written report is not lossless JSON: ${decoded.reason}`);
  return decoded.value as Record<string, unknown>;
};

// Mutations of a decoded report: each may or may not break it; the reader and the schema must agree on every one.
type Mutation = (frame: Record<string, unknown>) => void;
const BAD_VALUES: unknown[] = [undefined, null, 0, -1, 1.5, '1', true, [], {}, -0.5, Number.MAX_SAFE_INTEGER + 2];
const entryOf = (frame: Record<string, unknown>): Record<string, unknown> | undefined => {
  const entries = [frame.started, frame.finished].flatMap((list) => (Array.isArray(list) ? (list as unknown[]) : []));
  const objects = entries.filter(
    (e): e is Record<string, unknown> => e !== null && typeof e === 'object' && !Array.isArray(e),
  );
  return objects.length === 0 ? undefined : pick(objects);
};
const setOrDelete = (object: Record<string, unknown>, key: string, value: unknown): void => {
  if (value === undefined) delete object[key];
  else object[key] = value;
};
const MUTATIONS: Mutation[] = [
  (frame) => setOrDelete(frame, pick(['type', 'run', 'started', 'finished', 'extra']), pick(BAD_VALUES)),
  (frame) => {
    const entry = entryOf(frame);
    if (entry !== undefined)
      setOrDelete(entry, pick([...Object.keys(entry), 'extra', 'replayed', 'pending']), pick(BAD_VALUES));
  },
  (frame) => {
    const entry = entryOf(frame);
    const marks = entry?.progress;
    if (Array.isArray(marks) && marks.length > 0) {
      const mark = pick(marks) as Record<string, unknown>;
      setOrDelete(mark, pick(['atMs', 'progress', 'total', 'message', 'extra']), pick(BAD_VALUES));
    }
  },
  (frame) => {
    const lists = ['started', 'finished'].filter((key) => Array.isArray(frame[key]));
    if (lists.length > 0) (frame[pick(lists)] as unknown[]).push(pick(BAD_VALUES));
  },
];

const ROUNDS = 600;

describe('the bindings host call report codec against the call vocabulary', () => {
  test('what the writer writes, the schema accepts and the reader returns unchanged', () => {
    let calls = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const written = report();
      const value = decode(written.text);
      expect(FromHostFrameSchema.safeParse(value).success).toBe(true);
      const read = parseCallsFrame(value);
      if (!read.ok) throw new Error(`${read.message}: ${written.text.slice(0, 500)}`);
      expect(read.frame.run).toBe(written.run);
      // compared as text: vitest's deep equality recurses, and some arguments are 5 000 deep
      expect(text(read.frame.started ?? [])).toBe(text(written.started));
      expect(text(read.frame.finished ?? [])).toBe(text(written.finished.map(expectedFinished)));
      for (const s of read.frame.started ?? []) expect(StartedCallSchema.safeParse(s).success).toBe(true);
      for (const f of read.frame.finished ?? []) expect(FinishedCallSchema.safeParse(f).success).toBe(true);
      calls += written.started.length + written.finished.length;
    }
    expect(calls).toBeGreaterThan(ROUNDS);
  });

  test('a started and a finished report together are the call record a result holds', () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const s = started();
      const f = finished();
      const { id: _id, ...answer } = expectedFinished(f);
      const record = { ...s, startedAtMs: Math.max(0, s.startedAtMs), ...answer };
      const parsed = CallRecordSchema.safeParse(record);
      if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues[0]));
    }
  });

  test('on every mutation the reader rejects exactly what the schema rejects', () => {
    let rejected = 0;
    let accepted = 0;
    for (let round = 0; round < ROUNDS * 3; round += 1) {
      const value = decode(report().text);
      for (let n = 1 + Math.floor(random() * 2); n > 0; n -= 1) pick(MUTATIONS)(value);
      const schema = FromHostFrameSchema.safeParse(value).success;
      const reader = value.type === 'calls' ? parseCallsFrame(value).ok : schema;
      if (reader !== schema)
        throw new Error(`reader ${String(reader)}, schema ${String(schema)} on ${JSON.stringify(value).slice(0, 800)}`);
      if (schema) accepted += 1;
      else rejected += 1;
    }
    // the mutations reach both verdicts often: the agreement is not vacuous
    expect(rejected).toBeGreaterThan(ROUNDS / 2);
    expect(accepted).toBeGreaterThan(ROUNDS / 10);
  });

  // Hand-picked edges kept from the first version of this check.
  const start = { id: 1, global: 'tools', name: 'add', args: { a: 1 }, startedAtMs: 2.5 };
  const finish = { id: 1, ok: true, value: 3, durationMs: 0.4 };
  const cases: [string, Record<string, unknown>][] = [
    ['started and finished', { type: 'calls', run: 1, started: [start], finished: [finish] }],
    [
      'only finished, failed with a violation',
      { type: 'calls', run: 2, finished: [{ id: 3, ok: false, message: 'x', durationMs: 1, schemaViolation: '$: y' }] },
    ],
    ['an empty report', { type: 'calls', run: 1 }],
    ['null args', { type: 'calls', run: 1, started: [{ ...start, args: null }] }],
    ['a zero run', { type: 'calls', run: 0 }],
    ['an unknown key', { type: 'calls', run: 1, extra: true }],
    [
      'a started call without args',
      { type: 'calls', run: 1, started: [{ id: 1, global: 'g', name: 'n', startedAtMs: 0 }] },
    ],
    ['a fractional id', { type: 'calls', run: 1, started: [{ ...start, id: 1.5 }] }],
    ['a started call with an unknown key', { type: 'calls', run: 1, started: [{ ...start, pwned: 1 }] }],
    ['a negative duration', { type: 'calls', run: 1, finished: [{ ...finish, durationMs: -1 }] }],
    ['a numeric message', { type: 'calls', run: 1, finished: [{ ...finish, ok: false, message: 7 }] }],
    ['started that is not an array', { type: 'calls', run: 1, started: start }],
    ['a non-object entry', { type: 'calls', run: 1, finished: [1] }],
  ];
  test.each(cases)('%s: the reader and the schema agree', (_name, frame) => {
    expect(parseCallsFrame(frame).ok).toBe(FromHostFrameSchema.safeParse(frame).success);
  });
});
