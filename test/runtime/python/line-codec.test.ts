import { describe, expect, test } from 'vitest';
import { encodeLine, LineDecoder, type LineEvent } from '../../../runtime/channel/line-codec.js';

const collect = (decoder: LineDecoder, chunks: Uint8Array[]): LineEvent[] => {
  const events: LineEvent[] = [];
  for (const chunk of chunks) decoder.push(chunk, (e) => events.push(e));
  return events;
};
const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('line codec (fd-3 NDJSON frames)', () => {
  test('frames split anywhere, including inside a multi-byte character, come out whole and in order', () => {
    const wire = new Uint8Array([...encodeLine('{"a":"€😀"}'), ...encodeLine('{"b":2}'), ...encodeLine('{"c":3}')]);
    for (let cut = 1; cut < wire.length; cut++) {
      const events = collect(new LineDecoder(1024), [wire.subarray(0, cut), wire.subarray(cut)]);
      expect(events).toEqual([
        { kind: 'frame', text: '{"a":"€😀"}' },
        { kind: 'frame', text: '{"b":2}' },
        { kind: 'frame', text: '{"c":3}' },
      ]);
    }
  });

  test('a frame of exactly the cap passes; one byte more fails once, and later input is ignored', () => {
    const exact = collect(new LineDecoder(4), [bytes('abcd\n')]);
    expect(exact).toEqual([{ kind: 'frame', text: 'abcd' }]);
    const decoder = new LineDecoder(4);
    const over = collect(decoder, [bytes('abc'), bytes('de'), bytes('\nok\n')]);
    expect(over).toEqual([{ kind: 'error', message: 'control frame exceeds 4 bytes (at least 5)' }]);
    expect(decoder.failed).toBe(true);
    expect(collect(decoder, [bytes('x\n')])).toEqual([]);
  });

  test('a newline-free flood fails as soon as it passes the cap, holding at most the cap', () => {
    const decoder = new LineDecoder(1_000);
    const events: LineEvent[] = [];
    let peak = 0;
    for (let i = 0; i < 100 && !decoder.failed; i++) {
      decoder.push(new Uint8Array(64).fill(120), (e) => events.push(e));
      peak = Math.max(peak, decoder.buffered);
    }
    expect(events).toHaveLength(1);
    expect(events[0]?.kind).toBe('error');
    expect(peak).toBeLessThanOrEqual(1_000);
  });

  test('invalid UTF-8, empty frames, non-byte chunks and a cut-off tail are errors, never throws', () => {
    expect(collect(new LineDecoder(64), [new Uint8Array([0xff, 0x0a])])).toEqual([
      { kind: 'error', message: 'control frame is not valid UTF-8' },
    ]);
    expect(collect(new LineDecoder(64), [bytes('\n')])).toEqual([{ kind: 'error', message: 'empty control frame' }]);
    expect(collect(new LineDecoder(64), ['text' as unknown as Uint8Array])[0]?.kind).toBe('error');
    const tail: LineEvent[] = [];
    const decoder = new LineDecoder(64);
    decoder.push(bytes('{"a":'), (e) => tail.push(e));
    decoder.end((e) => tail.push(e));
    expect(tail).toEqual([
      { kind: 'error', message: 'control stream ended inside a frame (5 bytes without a newline)' },
    ]);
  });

  test('a cap that is not a positive integer is misuse at construction (an unbounded decoder is never built)', () => {
    for (const cap of [0, -1, Number.NaN, 1.5, Number.POSITIVE_INFINITY])
      expect(() => new LineDecoder(cap)).toThrow(TypeError);
  });

  test('random frames in random chunks round-trip exactly', () => {
    let seed = 42;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['a', 'é', '€', '😀', '"', '\\', ' ', '{', '}'];
    const texts = Array.from({ length: 2_000 }, () =>
      Array.from(
        { length: 1 + Math.floor(random() * 40) },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join(''),
    );
    const wire = new Uint8Array(texts.reduce((n, t) => n + encodeLine(t).length, 0));
    let offset = 0;
    for (const t of texts) {
      const line = encodeLine(t);
      wire.set(line, offset);
      offset += line.length;
    }
    const chunks: Uint8Array[] = [];
    for (let at = 0; at < wire.length;) {
      const size = 1 + Math.floor(random() * 97);
      chunks.push(wire.subarray(at, at + size));
      at += size;
    }
    const events = collect(new LineDecoder(1_024), chunks);
    expect(events.map((e) => (e.kind === 'frame' ? e.text : `!${e.message}`))).toEqual(texts);
  });
});
