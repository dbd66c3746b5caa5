import { describe, expect, test } from 'vitest';
import {
  callLabel,
  conditionText,
  deniedMessage,
  describeBreakpoints,
  mergeBreakpoints,
  parseCondition,
  parseJsonText,
} from '../../../extension/debug/call-pause-ui.js';
import { untranslated as t } from '../../../extension/l10n.js';
import { pauseReason } from '../../../runtime/protocol/call-pause.js';

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
