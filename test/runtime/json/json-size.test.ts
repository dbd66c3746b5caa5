import { describe, expect, test } from 'vitest';
import { fittingLength, jsonByteLength, jsonStringBytes } from '../../../runtime/json/json-size.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

const STRINGS = [
  '',
  'plain ascii',
  'quote " backslash \\ controls \b\t\n\f\r \u0000\u0001\u001f del \u007f',
  'é€😀 and a lone high \ud83d and a lone low \ude00 and a pair \ud83d\ude00',
  '\u2028\u2029',
];

describe('JSON sizes measured without writing the JSON', () => {
  test.each(STRINGS)('jsonStringBytes(%j) is the UTF-8 length of JSON.stringify', (text) => {
    expect(jsonStringBytes(text)).toBe(bytesOf(text));
  });

  test('long strings are measured a slice at a time without splitting a surrogate pair at a slice edge', () => {
    // pairs straddle every possible slice boundary: odd offsets before each emoji
    const text = `x${'😀'.repeat(700_000)}"\n${'a\u0001'.repeat(100_000)}`;
    expect(text.length).toBeGreaterThan(1024 * 1024);
    expect(jsonStringBytes(text)).toBe(bytesOf(text));
  });

  test.each<[string, JsonValue]>([
    ['scalars', [null, true, false, 0, -1.5e-7, 1e21, 123456789, 'x']],
    ['objects with escaped keys', { 'a"b': { '\n': [], '': {} }, é: [1, [2, [3]]] }],
    ['empty containers', { a: [], b: {}, c: [[]] }],
  ])('jsonByteLength matches JSON.stringify for %s', (_name, value) => {
    expect(jsonByteLength(value)).toBe(bytesOf(value));
  });

  test('jsonByteLength walks 200 000 levels and a 1 000 000-item array', () => {
    let deep: JsonValue = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = i % 2 === 0 ? [deep] : { k: deep };
    expect(jsonByteLength(deep)).toBe(6 + 100_000 * 2 + 100_000 * 6);
    const wide = new Array<number>(1_000_000).fill(7);
    expect(jsonByteLength(wide)).toBe(bytesOf(wide));
  });

  test('fittingLength is the longest prefix within the budget, never half a surrogate pair', () => {
    const text = `ab😀"\n${'z'.repeat(200_000)}`;
    for (const budget of [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 1_000, 150_000, 400_000]) {
      const length = fittingLength(text, budget);
      const fits = (n: number): boolean => bytesOf(text.slice(0, n)) <= budget;
      if (budget < 2) expect(length).toBe(0);
      else {
        expect(fits(length)).toBe(true);
        // one more code point would not fit (or there is none)
        const next = length + (text.codePointAt(length)! > 0xffff ? 2 : 1);
        expect(length === text.length || !fits(next)).toBe(true);
      }
      expect(text.charCodeAt(length - 1) >= 0xd800 && text.charCodeAt(length - 1) <= 0xdbff).toBe(false);
    }
  });
});
