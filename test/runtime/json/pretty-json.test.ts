import { describe, expect, test } from 'vitest';
import { orderedKeys, PRETTY_DEPTH_LIMIT, prettyJson } from '../../../runtime/json/pretty-json.js';
import { encodeChecked } from '../../../runtime/json/lossless.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';

describe('prettyJson', () => {
  test.each<[string, JsonValue]>([
    ['scalars', 'a"b\u0000\u2028é😀'],
    ['empty containers', { a: [], b: {}, c: [[]], d: [{}] }],
    ['nested mix', { z: 1, a: [1, 'two', null, true, { x: -1.5e-7 }], m: { '': 0, '10': 2, b: 3 } }],
    ['top-level array', [1, [2, [3]]]],
  ])('matches JSON.stringify(value, null, 2) for %s', (_name, value) => {
    expect(prettyJson(value)).toBe(JSON.stringify(value, null, 2));
  });

  test('prints a 20 000-deep value linearly and without overflowing the stack', () => {
    let value: JsonValue = 'leaf';
    for (let i = 0; i < 20_000; i++) value = i % 2 === 0 ? [value] : { k: value };
    const text = prettyJson(value);
    expect(text.length).toBeLessThan(200_000);
    // toEqual recurses, so compare the canonical compact spellings
    expect(encodeChecked(JSON.parse(text) as JsonValue, 0)).toBe(encodeChecked(value, 0));
  });

  test('writes values compactly below the indentation limit', () => {
    let value: JsonValue = [1, 2];
    for (let i = 0; i < PRETTY_DEPTH_LIMIT; i++) value = [value];
    const lines = prettyJson(value).split('\n');
    expect(lines).toHaveLength(2 * PRETTY_DEPTH_LIMIT + 1);
    expect(lines[PRETTY_DEPTH_LIMIT]).toBe(`${'  '.repeat(PRETTY_DEPTH_LIMIT)}[1,2]`);
  });

  test('skips undefined properties like JSON.stringify', () => {
    const value = { a: undefined, b: 1 } as unknown as JsonValue;
    expect(prettyJson(value)).toBe(JSON.stringify(value, null, 2));
  });

  test('uses raw spellings and key order from the hooks', () => {
    const text = prettyJson(
      { b: 1, a: { keep: 1.0 } },
      {
        hookDepth: 2,
        orderKeys: (path, keys) => (path.length === 0 ? [...keys].sort() : keys),
        raw: (path) => (path.length === 1 && path[0] === 'a' ? '{"keep":1.0}' : undefined),
      },
    );
    expect(text).toBe('{\n  "a": {"keep":1.0},\n  "b": 1\n}');
  });

  test('orders known keys first and keeps the rest in place', () => {
    expect(orderedKeys(['x', 'cells', 'y', 'version'], ['version', 'metadata', 'cells'])).toEqual([
      'version',
      'cells',
      'x',
      'y',
    ]);
  });
});
