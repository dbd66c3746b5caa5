// The expectation check in isolation: exact, shape and ignore; masks; first differences; deep values; drift.
import { describe, expect, it } from 'vitest';
import {
  checkExpectation,
  expectationFromResult,
  ExpectationSchema,
  type JsonValue,
  type RunResult,
} from '../../../runtime/index.js';
import { callDrift } from '../../../runtime/testing/drift.js';
import { parseMaskPath } from '../../../runtime/json/mask-path.js';

const sandbox = {
  network: 'denied',
  filesystem: 'denied',
  childProcess: 'denied',
  enforcement: 'full',
  mechanisms: [],
} as const;
function result(partial: Partial<RunResult>): RunResult {
  return {
    language: 'typescript',
    logs: [],
    calls: [],
    sandbox: { ...sandbox, mechanisms: [] },
    durationMs: 1,
    ...partial,
  };
}
const call = (id: number, name: string, args: JsonValue, value: JsonValue): RunResult['calls'][number] => ({
  id,
  global: 'tools',
  name,
  args,
  ok: true,
  value,
  startedAtMs: 0,
  durationMs: 1,
});

describe('checkExpectation', () => {
  const run = result({
    value: {
      id: 'x1',
      cities: [
        { name: 'Paris', pop: 2 },
        { name: 'Lyon', pop: 1 },
      ],
    },
    logs: ['a', 'b'],
    calls: [call(1, 'lookup', { q: 'p', at: 5 }, 1)],
  });

  it('an accepted run passes its own expectation', () => {
    expect(checkExpectation(expectationFromResult(run), run)).toEqual({
      ok: true,
      checked: ['value', 'logs', 'error', 'calls'].map((field) => ({ field, match: 'exact' })),
      mismatches: [],
    });
  });

  it('exact: the first difference in document order, with both sides', () => {
    const expected = expectationFromResult(run);
    const changed = result({
      ...run,
      value: {
        id: 'x1',
        cities: [
          { name: 'Paris', pop: 3 },
          { name: 'Lyon', pop: 9 },
        ],
      },
    });
    expect(checkExpectation(expected, changed).mismatches).toEqual([
      {
        field: 'value',
        match: 'exact',
        path: '$.cities[0].pop',
        reason: 'different value',
        expected: '2',
        actual: '3',
      },
    ]);
    const longer = result({ ...run, logs: ['a', 'b', 'c'] });
    expect(checkExpectation(expected, longer).mismatches[0]).toMatchObject({
      field: 'logs',
      path: '$',
      reason: 'expected 2 items, got 3',
    });
    const extra = result({ ...run, value: { id: 'x1', cities: [], more: true } });
    expect(checkExpectation(expected, extra).mismatches[0]).toMatchObject({
      path: '$.cities',
      reason: 'expected 2 items, got 0',
    });
  });

  it('masks leave a changing field out, but not its presence', () => {
    const expected = { value: { match: 'exact' as const, is: { id: 'x1', n: 1 }, mask: ['$.id'] } };
    expect(checkExpectation(expected, result({ value: { id: 'other', n: 1 } })).ok).toBe(true);
    expect(checkExpectation(expected, result({ value: { n: 1 } })).mismatches[0]).toMatchObject({
      path: '$.id',
      reason: 'missing',
    });
    const wildcard = {
      value: {
        match: 'exact' as const,
        is: [
          { at: 1, v: 'a' },
          { at: 2, v: 'b' },
        ],
        mask: ['$[*].at'],
      },
    };
    expect(
      checkExpectation(
        wildcard,
        result({
          value: [
            { at: 9, v: 'a' },
            { at: 8, v: 'b' },
          ],
        }),
      ).ok,
    ).toBe(true);
    const calls = {
      calls: {
        match: 'exact' as const,
        is: [{ call: 'tools.lookup', args: { q: 'p', at: 1 } }],
        mask: ['$[*].args.at'],
      },
    };
    expect(checkExpectation(calls, run).ok).toBe(true);
  });

  it('shape: types and keys, any values, arrays of any length with the same item shapes', () => {
    const expected = { value: { match: 'shape' as const, is: { id: 'x', cities: [{ name: 'P', pop: 1 }] } } };
    expect(checkExpectation(expected, run).ok).toBe(true);
    expect(
      checkExpectation(expected, result({ value: { id: 'x', cities: [{ name: 'P', pop: '1' }] } })).mismatches[0],
    ).toMatchObject({
      path: '$.cities[0].pop',
      reason: 'expected a number, got a string',
    });
    expect(
      checkExpectation(expected, result({ value: { id: 'x', cities: [{ name: 'P' }] } })).mismatches[0],
    ).toMatchObject({
      path: '$.cities[0].pop',
      reason: 'missing',
    });
    expect(checkExpectation(expected, result({ value: { id: 'x', cities: [] } })).mismatches[0]).toMatchObject({
      path: '$.cities',
      reason: 'expected items, got an empty array',
    });
    const calls = { calls: { match: 'shape' as const, is: [{ call: 'tools.lookup', args: { q: 'other', at: 0 } }] } };
    expect(checkExpectation(calls, run).ok).toBe(true);
    expect(
      checkExpectation(calls, result({ calls: [call(1, 'find', { q: 'p', at: 5 }, 1)] })).mismatches[0],
    ).toMatchObject({
      path: '$[0].call',
      expected: 'tools.lookup',
      actual: 'tools.find',
    });
  });

  it('error: kind and, when given, message; null means the run must succeed; ignore skips a field', () => {
    const failed = result({ error: { kind: 'timeout', message: 'deadline' } });
    expect(checkExpectation({ error: { match: 'exact', is: { kind: 'timeout' } } }, failed).ok).toBe(true);
    expect(
      checkExpectation({ error: { match: 'exact', is: { kind: 'timeout', message: 'other' } } }, failed).mismatches[0],
    ).toMatchObject({
      path: '$.message',
    });
    expect(checkExpectation({ error: { match: 'shape', is: { kind: 'timeout', message: 'other' } } }, failed).ok).toBe(
      true,
    );
    expect(checkExpectation({ error: { match: 'exact', is: null } }, failed).mismatches[0]).toMatchObject({
      reason: 'the run failed',
      actual: 'timeout: "deadline"',
    });
    expect(checkExpectation({ value: { match: 'ignore' }, error: { match: 'ignore' } }, failed)).toEqual({
      ok: true,
      checked: [],
      mismatches: [],
    });
  });

  it('a value 100 000 levels deep is compared without overflowing the stack', () => {
    let deep: JsonValue = 1;
    let other: JsonValue = 2;
    for (let i = 0; i < 100_000; i++) {
      deep = [deep];
      other = [other];
    }
    const report = checkExpectation({ value: { match: 'exact', is: deep } }, result({ value: other }));
    expect(report.mismatches[0]?.reason).toBe('different value');
    expect(report.mismatches[0]?.path.length).toBeLessThanOrEqual(301);
    expect(checkExpectation({ value: { match: 'shape', is: deep } }, result({ value: other })).ok).toBe(true);
  });

  it('the schema refuses a bad mask path and an unknown field, naming them', () => {
    expect(parseMaskPath('id')).toEqual({ ok: false, message: 'a mask path starts with "$", got "id"' });
    expect(parseMaskPath('$.a[*]["b c"][2]')).toEqual({
      ok: true,
      segments: [{ key: 'a' }, { any: true }, { key: 'b c' }, { index: 2 }],
    });
    const bad = ExpectationSchema.safeParse({ value: { match: 'exact', mask: ['$.a..b'] }, vale: {} });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain('vale');
  });
});

describe('callDrift', () => {
  it('value, shape, outcome, unrecorded and unused calls', () => {
    const cassette = {
      version: 1 as const,
      calls: [
        { global: 'tools', name: 'a', args: 1, ok: true, value: { n: 1 }, durationMs: 1 },
        { global: 'tools', name: 'b', args: 1, ok: true, value: { n: 1 }, durationMs: 1 },
        { global: 'tools', name: 'c', args: 1, ok: true, value: 1, durationMs: 1 },
        { global: 'tools', name: 'gone', args: 1, ok: true, value: 1, durationMs: 1 },
      ],
    };
    const live = result({
      calls: [
        call(1, 'a', 1, { n: 2 }),
        call(2, 'b', 1, { n: '1' }),
        { ...call(3, 'c', 1, 1), ok: false, value: undefined, message: 'down' },
        call(4, 'new', 1, 1),
      ],
    });
    expect(callDrift(live, cassette).map((d) => [d.kind, d.call])).toEqual([
      ['value', 'tools.a(1)'],
      ['shape', 'tools.b(1)'],
      ['outcome', 'tools.c(1)'],
      ['unrecorded', 'tools.new(1)'],
      ['unused', 'tools.gone(1)'],
    ]);
  });
});
