import { describe, expect, test } from 'vitest';
import { parseCallsFrame } from '../../../runtime/bindings-host/calls-frame.js';
import { FromHostFrameSchema } from '../../../runtime/bindings-host/wire.js';

// The hand-written check of the bindings host's call reports agrees with the wire schema on every case.
const started = { id: 1, global: 'tools', name: 'add', args: { a: 1 }, startedAtMs: 2.5 };
const finished = { id: 1, ok: true, value: 3, durationMs: 0.4 };
const cases: [string, Record<string, unknown>][] = [
  ['started and finished', { type: 'calls', run: 1, started: [started], finished: [finished] }],
  ['only finished, failed with a violation', { type: 'calls', run: 2, finished: [{ id: 3, ok: false, message: 'x', durationMs: 1, schemaViolation: '$: y' }] }],
  ['an empty report', { type: 'calls', run: 1 }],
  ['null args', { type: 'calls', run: 1, started: [{ ...started, args: null }] }],
  ['a zero run', { type: 'calls', run: 0 }],
  ['an unknown key', { type: 'calls', run: 1, extra: true }],
  ['a started call without args', { type: 'calls', run: 1, started: [{ id: 1, global: 'g', name: 'n', startedAtMs: 0 }] }],
  ['a fractional id', { type: 'calls', run: 1, started: [{ ...started, id: 1.5 }] }],
  ['a started call with an unknown key', { type: 'calls', run: 1, started: [{ ...started, pwned: 1 }] }],
  ['a negative duration', { type: 'calls', run: 1, finished: [{ ...finished, durationMs: -1 }] }],
  ['a numeric message', { type: 'calls', run: 1, finished: [{ ...finished, ok: false, message: 7 }] }],
  ['started that is not an array', { type: 'calls', run: 1, started: started }],
  ['a non-object entry', { type: 'calls', run: 1, finished: [1] }],
];

describe('calls reports from a bindings host', () => {
  test.each(cases)('%s: the fast check and the schema agree', (_name, frame) => {
    expect(parseCallsFrame(frame).ok).toBe(FromHostFrameSchema.safeParse(frame).success);
  });
});
