import { describe, expect, test } from 'vitest';
import {
  callLabel,
  conditionText,
  deniedMessage,
  describeBreakpoints,
  forkOfRun,
  mergeBreakpoints,
  parseCondition,
  parseJsonText,
} from '../../../extension/debug/call-pause-ui.js';
import { untranslated as t } from '../../../extension/l10n.js';
import { pauseReason } from '../../../runtime/protocol/call-pause.js';
import { RunResultSchema } from '../../../runtime/protocol/run-result.js';

describe('call breakpoints as a person types and reads them', () => {
  test('a condition with a binding, a path and a JSON value reads back as typed', () => {
    const parsed = parseCondition('tools.search $.q == "cats"', t);
    expect(parsed).toEqual({ ok: true, value: { binding: 'tools.search', path: '$.q', equals: 'cats' } });
    if (parsed.ok) expect(conditionText(parsed.value)).toBe('tools.search $.q == "cats"');
  });

  test('a condition without a binding matches any binding, and the runtime gate breaks on it', () => {
    const parsed = parseCondition('  $.items[0].id==  {"n": 1} ', t);
    expect(parsed).toEqual({ ok: true, value: { path: '$.items[0].id', equals: { n: 1 } } });
    if (!parsed.ok) return;
    const call = { id: 1, global: 'db', name: 'get', args: { items: [{ id: { n: 1 } }] } };
    expect(pauseReason({ breakpoints: { conditions: [parsed.value] } }, call)).toBe('breakpoint');
    expect(pauseReason({ breakpoints: { conditions: [parsed.value] } }, { ...call, args: { items: [] } })).toBe(
      undefined,
    );
  });

  test.each([
    ['$.q "cats"', /\[binding\] \$\.path == JSON/],
    ['a b c == 1', /\[binding\] \$\.path == JSON/],
    ['search $.q == 1', /"search" is not a binding/],
    ['tools.search q == 1', /argument path/],
    ['$.q == cats', /Not JSON/],
    ['$.q ==', /Type a JSON value/],
  ])('%j is refused with a message naming the problem', (text, message) => {
    const parsed = parseCondition(text, t);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  test("a notebook's and a cell's breakpoints merge; nothing set merges to nothing", () => {
    expect(mergeBreakpoints(undefined, {})).toBeUndefined();
    expect(
      mergeBreakpoints(
        { bindings: ['tools.search'] },
        { bindings: ['tools.search', 'mail.send'], conditions: [{ path: '$.q', equals: 1 }] },
      ),
    ).toEqual({ bindings: ['tools.search', 'mail.send'], conditions: [{ path: '$.q', equals: 1 }] });
    expect(mergeBreakpoints({ every: false }, { every: true })).toEqual({ every: true });
  });

  test('breakpoints are described in a few words', () => {
    expect(describeBreakpoints(undefined, t)).toBe('no call breakpoints');
    expect(describeBreakpoints({ every: true, bindings: ['a.b'] }, t)).toBe('breaks on every call');
    expect(
      describeBreakpoints({ bindings: ['a.b'], conditions: [{ binding: 'a.c', path: '$', equals: null }] }, t),
    ).toBe('breaks on a.b, a.c $ == null');
  });
});

describe('paused calls as shown', () => {
  test('a call is labelled with its arguments, cut to the limit', () => {
    expect(callLabel({ global: 'tools', name: 'search', args: { q: 'cats' } })).toBe('tools.search({"q":"cats"})');
    const long = callLabel({ global: 'tools', name: 'search', args: { q: 'x'.repeat(200) } }, 20);
    expect(long).toBe(`tools.search(${'{"q":"xxxxxxxxxxxxx'}…)`);
    expect(deniedMessage({ global: 'mail', name: 'send' })).toBe('mail.send was denied by the user');
  });

  test('JSON typed into a box: a value, or what is wrong with it', () => {
    expect(parseJsonText(' {"hits": 3} ', t)).toEqual({ ok: true, value: { hits: 3 } });
    expect(parseJsonText('null', t)).toEqual({ ok: true, value: null });
    expect(parseJsonText('{hits: 3}', t)).toMatchObject({ ok: false, message: expect.stringMatching(/^Not JSON/) });
    expect(parseJsonText('   ', t)).toMatchObject({ ok: false });
  });
});

describe('run from call N of a shown run', () => {
  const call = (id: number, extra: Record<string, unknown>) => ({
    id,
    global: 'tools',
    name: 'search',
    args: { q: String(id) },
    startedAtMs: id,
    durationMs: 1,
    ...extra,
  });
  const result = (calls: ReturnType<typeof call>[], total?: number) =>
    RunResultSchema.parse({
      language: 'typescript',
      logs: [],
      durationMs: 5,
      calls,
      ...(total === undefined
        ? {}
        : { callSummary: { total, omitted: total - calls.length, byBinding: [], last: [] } }),
      sandbox: { network: 'denied', filesystem: 'denied', childProcess: 'denied', enforcement: 'none', mechanisms: [] },
    });

  test("the run's calls become the recording (answered, failed, never answered), in call order", () => {
    const run = result([
      call(2, { ok: false, message: 'down' }),
      call(1, { ok: true, value: { hits: 1 } }),
      call(3, { ok: false }),
    ]);
    const fork = forkOfRun(run, 2, { ok: true, value: { hits: 9 } }, t);
    expect(fork).toEqual({
      ok: true,
      value: {
        at: 2,
        answer: { ok: true, value: { hits: 9 } },
        calls: [
          { global: 'tools', name: 'search', args: { q: '1' }, ok: true, durationMs: 1, value: { hits: 1 } },
          { global: 'tools', name: 'search', args: { q: '2' }, ok: false, durationMs: 1, message: 'down' },
          { global: 'tools', name: 'search', args: { q: '3' }, ok: false, durationMs: 1, pending: true },
        ],
      },
    });
  });

  test('a summarized run (not every call kept) is refused', () => {
    const run = result([call(1, { ok: true, value: 1 })], 500);
    expect(forkOfRun(run, 1, { ok: true, value: 2 }, t)).toEqual({
      ok: false,
      message: 'This run keeps 1 of its 500 calls: run from a call needs them all.',
    });
  });

  test('a call outside the run, or a run without calls, is refused naming the range', () => {
    const run = result([call(1, { ok: true, value: 1 })]);
    expect(forkOfRun(run, 2, { ok: false, message: 'x' }, t)).toEqual({
      ok: false,
      message: 'Call 2 is not in this run: it has calls 1 to 1.',
    });
    expect(forkOfRun(run, 0, { ok: false, message: 'x' }, t).ok).toBe(false);
    expect(forkOfRun(result([]), 1, { ok: false, message: 'x' }, t)).toEqual({
      ok: false,
      message: 'This run made no binding calls to run from.',
    });
  });
});
