import { describe, expect, test } from 'vitest';
import { lineColumn, pathKey, scanJson } from '../../../runtime/json/json-scan.js';

const opts = { spanDepth: 3, uniqueKeys: (path: readonly (string | number)[]) => path.length <= 1 };

function errorAt(text: string): { line: number; column: number; message: string } {
  const r = scanJson(text, opts);
  if (r.ok) throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
  return { ...lineColumn(text, r.offset), message: r.message };
}

describe('scanJson', () => {
  test.each([
    '{}',
    '[]',
    '0',
    '-0.5e+10',
    '"\\u00e9\\n\\/"',
    '{"a":[1,2,{"b":null}],"c":true,"d":false}',
    ' \n\t{ "a" : 1 } \r\n',
  ])('accepts exactly what JSON.parse accepts: %s', (text) => {
    expect(scanJson(text, opts).ok).toBe(true);
    expect(() => JSON.parse(text)).not.toThrow();
  });

  test.each([
    ['{"a":1,}', 1, 7, "trailing comma before '}'"],
    ['[1,2,]', 1, 5, "trailing comma before ']'"],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' or '}'"],
    ['{"a" 1}', 1, 6, "expected ':'"],
    ['{a:1}', 1, 2, 'quoted'],
    ['[01]', 1, 2, 'invalid number'],
    ['[1.]', 1, 2, 'invalid number'],
    ['"abc', 1, 1, 'unterminated string'],
    ['"a\\x"', 1, 3, "invalid escape '\\x'"],
    ['"a\u0001"', 1, 3, 'control character U+0001'],
    ['[tru]', 1, 2, 'bare words'],
    ['{} {}', 1, 4, 'after the end'],
    ['{"a":', 1, 6, 'unexpected end of file'],
    ['[NaN]', 1, 2, 'expected a value'],
    ['{"a":1,"a":2}', 1, 8, 'duplicate key "a"'],
  ])('rejects %j at line %i column %i', (text, line, column, message) => {
    const at = errorAt(text);
    expect(at).toMatchObject({ line, column });
    expect(at.message).toContain(message);
    expect(() => JSON.parse(text.includes('"a":1,"a":2') ? '!' : text)).toThrow();
  });

  test('allows repeated keys below the unique-key paths, as JSON.parse does', () => {
    expect(scanJson('{"m":{"x":{"k":1,"k":2}}}', opts).ok).toBe(true);
  });

  test('records spans of shallow values', () => {
    const text = '{"a": [10, {"b": "x"}], "c": 2}';
    const r = scanJson(text, opts);
    if (!r.ok) throw new Error(r.message);
    const slice = (path: (string | number)[]): string | undefined => {
      const s = r.spans.get(pathKey(path));
      return s === undefined ? undefined : text.slice(s.start, s.end);
    };
    expect(slice([])).toBe(text);
    expect(slice(['a'])).toBe('[10, {"b": "x"}]');
    expect(slice(['a', 1])).toBe('{"b": "x"}');
    expect(slice(['a', 1, 'b'])).toBe('"x"');
    expect(slice(['c'])).toBe('2');
  });

  test('scans a 100 000-deep document without recursion', () => {
    const text = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(scanJson(text, opts).ok).toBe(true);
    expect(scanJson(text.slice(0, -1), opts).ok).toBe(false);
  });
});
