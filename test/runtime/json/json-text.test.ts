import { describe, expect, test } from 'vitest';
import {
  chunkedSink,
  JSON_CHUNK_CHARS,
  jsonText,
  PRETTY_DEPTH_LIMIT,
  writeJsonText,
} from '../../../runtime/json/json-text.js';
import { parseIterative } from '../../../runtime/json/lossless.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';

function nested(depth: number): JsonValue {
  let value: JsonValue = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

// Depth of a parsed value, walking its only child (toEqual would recurse).
function depthOf(value: unknown): number {
  let depth = 0;
  let at = value;
  while (at !== null && typeof at === 'object') {
    at = Array.isArray(at) ? at[0] : (at as { k: unknown }).k;
    depth++;
  }
  return depth;
}

describe('jsonText (the host JSON writer)', () => {
  test.each([5_000, 50_000, 200_000])(
    'writes a value nested %i deep, compact and indented, as parseable JSON',
    (depth) => {
      const value = nested(depth);
      expect(() => JSON.stringify(value)).toThrow(RangeError);
      const compact = jsonText(value);
      const parsed = JSON.parse(compact) as unknown;
      expect(depthOf(parsed)).toBe(depth);
      // indentation stops at PRETTY_DEPTH_LIMIT, so the text stays linear in the depth
      const pretty = jsonText(value, { indent: 2 });
      expect(pretty.length).toBeLessThan(compact.length + PRETTY_DEPTH_LIMIT * PRETTY_DEPTH_LIMIT * 4);
      const reparsed = parseIterative(pretty);
      expect(reparsed.ok && depthOf(reparsed.value)).toBe(depth);
    },
  );

  test('skips undefined and function properties and writes null for such array items, like JSON.stringify', () => {
    const value = { a: undefined, b: 1, c: () => 1, d: [undefined, () => 1, 2] };
    expect(jsonText(value)).toBe(JSON.stringify(value));
    expect(jsonText(value, { indent: 2 })).toBe(JSON.stringify(value, null, 2));
  });

  test('never consults toJSON (a host value is written as the data it is)', () => {
    expect(jsonText({ toJSON: 1, x: { toJSON: () => 'no', y: 2 } })).toBe('{"toJSON":1,"x":{"y":2}}');
  });

  test('streams pieces whose concatenation is the text, chunked without splitting the output', () => {
    const value = {
      logs: Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'x'.repeat(50)}`),
      big: 'y'.repeat(200_000),
    };
    const chunks: string[] = [];
    const sink = chunkedSink((chunk) => chunks.push(chunk), 4_096);
    writeJsonText(value, sink.push);
    sink.flush();
    expect(chunks.join('')).toBe(JSON.stringify(value));
    // small pieces are gathered into chunks of about the chunk size; the big string passes through in slices of at
    // most JSON_CHUNK_CHARS, so no piece is a copy of a whole long string
    const big = chunks.findIndex((c) => c.startsWith('y'.repeat(1_000)));
    expect(big).toBeGreaterThan(10);
    expect(chunks.slice(0, big - 1).every((c) => c.length >= 4_096 && c.length < 4_096 + 100)).toBe(true);
    expect(chunks.every((c) => c.length <= JSON_CHUNK_CHARS + 4_096 + 100)).toBe(true);
  });

  test('hooks see paths down to hookDepth and can order keys and substitute raw text', () => {
    const seen: string[] = [];
    const text = jsonText(
      { b: { y: 1, x: 2 }, a: [1.5] },
      {
        indent: 2,
        hookDepth: 1,
        orderKeys: (path, keys) => {
          seen.push(JSON.stringify(path));
          return [...keys].sort();
        },
        raw: (path) => (path.length === 1 && path[0] === 'a' ? '[1.50]' : undefined),
      },
    );
    expect(text).toBe('{\n  "a": [1.50],\n  "b": {\n    "x": 2,\n    "y": 1\n  }\n}');
    expect(seen).toEqual(['[]', '["b"]']);
  });
});
