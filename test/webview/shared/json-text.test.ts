import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';
import { jsonText } from '../../../webview/shared/json-text.js';

const samples: [string, JsonValue][] = [
  ['null', null],
  ['a number', -12.5e-7],
  ['a string with escapes', 'a"b\\c\n\u0000\u2028😀'],
  ['an empty array and object', { a: [], b: {} }],
  ['nested values', { list: [1, 'two', { three: [false, null] }], 'odd key': { '': 0 } }],
  ['an own __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "y": 2}') as JsonValue],
];

describe('jsonText', () => {
  test.each(samples)('matches JSON.stringify for %s, compact and indented', (_name, value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value));
    expect(jsonText(value, { indent: 2 })).toBe(JSON.stringify(value, null, 2));
    expect(jsonText(value, { indent: 40 })).toBe(JSON.stringify(value, null, 40));
  });

  test('sorts keys at every level when asked', () => {
    expect(jsonText({ b: 1, a: { d: 1, c: 2 } }, { sortKeys: true })).toBe('{"a":{"c":2,"d":1},"b":1}');
  });

  test('serializes 5 000 levels that make JSON.stringify throw', () => {
    let deep: JsonValue = 0;
    for (let i = 0; i < 5000; i += 1) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    const text = jsonText(deep);
    expect(text.length).toBe(10_001);
    expect(text.startsWith('[[[[')).toBe(true);
  });
});
