import { describe, expect, test } from 'vitest';
import { encodeFrame, FrameDecoder, type FrameEvent } from '../../../runtime/channel/frame-codec.js';
import { encodeLine, LineDecoder, type LineEvent } from '../../../runtime/channel/line-codec.js';
import { ReleasableBytes } from '../../../runtime/channel/releasable-bytes.js';

describe('frame bytes are let go as soon as a frame is decoded', () => {
  test('ReleasableBytes grows up to its cap, keeps what it holds, and is empty after takeText', () => {
    const bytes = new ReleasableBytes(10);
    bytes.reserve(3).set([104, 105, 33]);
    expect(bytes.reserve(5).subarray(0, 3)).toEqual(new Uint8Array([104, 105, 33]));
    expect(bytes.size).toBeLessThanOrEqual(10);
    expect(() => bytes.reserve(11)).not.toThrow();
    expect(bytes.size).toBe(10);
    expect(bytes.takeText(3, new TextDecoder())).toBe('hi!');
    expect(bytes.size).toBe(0);
    bytes.reserve(2).set([0xff, 0xfe]);
    expect(bytes.takeText(2, new TextDecoder('utf-8', { fatal: true }))).toBeUndefined();
    expect(bytes.size).toBe(0);
  });

  test('where the address space cannot be reserved, the bytes live in plain buffers with the same behaviour', () => {
    // beyond what V8 reserves: the constructor falls back, as it does under a tight inherited RLIMIT_AS
    const bytes = new ReleasableBytes(2 ** 40);
    bytes.reserve(3).set([104, 105, 33]);
    expect(bytes.reserve(70_000).subarray(0, 3)).toEqual(new Uint8Array([104, 105, 33]));
    expect(bytes.size).toBe(70_000);
    expect(bytes.takeText(3, new TextDecoder())).toBe('hi!');
    expect(bytes.size).toBe(0);
  });

  test('a length-prefixed frame split over many chunks decodes whole, then the next one too', () => {
    const text = `{"type":"log","text":"${'€'.repeat(50_000)}"}`;
    const wire = Buffer.concat([encodeFrame(text), encodeFrame('{"b":2}')]);
    const events: FrameEvent[] = [];
    const decoder = new FrameDecoder(1024 * 1024);
    for (let at = 0; at < wire.length; at += 7_777) decoder.push(wire.subarray(at, at + 7_777), (e) => events.push(e));
    expect(events).toEqual([
      { kind: 'frame', text },
      { kind: 'frame', text: '{"b":2}' },
    ]);
  });

  test('a newline-delimited frame split over many chunks decodes whole; the decoder then holds nothing', () => {
    const text = `{"type":"log","text":"${'😀'.repeat(40_000)}"}`;
    const wire = Buffer.concat([encodeLine(text), encodeLine('{"b":2}')]);
    const events: LineEvent[] = [];
    const decoder = new LineDecoder(1024 * 1024);
    for (let at = 0; at < wire.length; at += 6_001) decoder.push(wire.subarray(at, at + 6_001), (e) => events.push(e));
    expect(events).toEqual([
      { kind: 'frame', text },
      { kind: 'frame', text: '{"b":2}' },
    ]);
    expect(decoder.buffered).toBe(0);
  });
});
