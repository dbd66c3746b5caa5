import { FrameDecoder } from '../../../runtime/channel/frame-codec.js';
import { LineDecoder } from '../../../runtime/channel/line-codec.js';
import { CallDispatcher } from '../../../runtime/bindings/dispatcher.js';
import { seededRandom } from '../../../runtime/bindings/faults.js';
import { decodeLossless } from '../../../runtime/json/lossless.js';
import { ChildFrameSchema } from '../../../runtime/protocol/node-wire.js';
import { PythonChildFrameSchema } from '../../../runtime/protocol/python-wire.js';

// Seeded PRNG (the runtime's mulberry32): a failing seed replays the exact same frames.
export type Rng = () => number;
export const rngFrom = (seed: number): Rng => seededRandom(seed);
const int = (rng: Rng, n: number): number => Math.floor(rng() * n);
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, items.length)] as T;

export type Wire = 'node' | 'python';

const WEIRD_NUMBERS = [
  '-0',
  '1e400',
  '-1e400',
  '9007199254740993',
  '0.1e-400',
  '1.5',
  '-1',
  '0',
  '4294967296',
  'NaN',
  'Infinity',
];
const WEIRD_STRINGS = [
  '',
  '__proto__',
  'constructor',
  'prototype',
  'tools',
  'echo',
  'rm-rf',
  '\u0000',
  '\ud800',
  '€',
  'x'.repeat(300),
];

function randomValue(rng: Rng, depth = 0): unknown {
  const r = int(rng, depth > 3 ? 5 : 8);
  if (r === 0) return null;
  if (r === 1) return rng() < 0.5;
  if (r === 2) return int(rng, 5) === 0 ? Number.MAX_SAFE_INTEGER : int(rng, 1000) - 10;
  if (r === 3) return pick(rng, WEIRD_STRINGS);
  if (r === 4) return rng() * 1e6;
  if (r === 5) return Array.from({ length: int(rng, 4) }, () => randomValue(rng, depth + 1));
  const obj: Record<string, unknown> = {};
  for (let i = int(rng, 4); i > 0; i--) obj[pick(rng, WEIRD_STRINGS)] = randomValue(rng, depth + 1);
  return obj;
}

// A plausible child frame (sometimes valid, sometimes with wrong types, extra fields, duplicate or skipped ids).
function plausibleFrame(rng: Rng, wire: Wire, state: { nextId: number; noDone: boolean }): Record<string, unknown> {
  const all =
    wire === 'node'
      ? ['ready', 'log', 'call', 'done', 'reply', 'boot']
      : ['boot-ack', 'log', 'call', 'done', 'reply', 'run'];
  // a forged but valid `done` is a legitimate way to finish; runs that must end in protocol/worker-exit leave it out
  const types = state.noDone ? all.filter((t) => t !== 'done') : all;
  const type = rng() < 0.9 ? pick(rng, types) : randomValue(rng);
  const frame: Record<string, unknown> = { type };
  switch (type) {
    case 'log':
      frame.stream = rng() < 0.9 ? pick(rng, ['stdout', 'stderr']) : randomValue(rng);
      frame.text = rng() < 0.9 ? `log ${int(rng, 1e6)}` : randomValue(rng);
      break;
    case 'call': {
      // mostly the next id, sometimes a duplicate, a skip, zero, negative or non-integer
      const r = int(rng, 10);
      frame.id =
        r < 6
          ? state.nextId++
          : r === 6
            ? state.nextId - 1
            : r === 7
              ? state.nextId + 5
              : r === 8
                ? 0
                : randomValue(rng);
      frame.global = rng() < 0.8 ? 'tools' : pick(rng, WEIRD_STRINGS);
      frame.name = rng() < 0.7 ? 'echo' : pick(rng, WEIRD_STRINGS);
      if (rng() < 0.9) frame.args = randomValue(rng);
      break;
    }
    case 'done':
      if (rng() < 0.5) frame.value = randomValue(rng);
      if (rng() < 0.5)
        frame.error = {
          kind: pick(rng, ['exception', 'timeout', 'abort', 'worker-exit', 'protocol', 7]),
          message: pick(rng, WEIRD_STRINGS),
        };
      break;
    case 'boot-ack':
      frame.filesystem = rng() < 0.8;
      frame.childProcess = rng() < 0.8 ? false : 'no';
      break;
    default:
      break;
  }
  if (rng() < 0.1) frame[pick(rng, WEIRD_STRINGS)] = randomValue(rng);
  return frame;
}

const encoder = new TextEncoder();

// Byte-level damage to one frame body.
function mutateBody(rng: Rng, body: Uint8Array): Uint8Array {
  const bytes = Array.from(body);
  const r = int(rng, 10);
  if (r === 0 && bytes.length > 0)
    bytes.length = int(rng, bytes.length); // truncated
  else if (r === 1 && bytes.length > 0)
    bytes[int(rng, bytes.length)] = int(rng, 256); // flipped byte
  // invalid UTF-8 / NUL / newline
  else if (r === 2) bytes.splice(int(rng, bytes.length + 1), 0, pick(rng, [0xff, 0xfe, 0xc3, 0xed, 0x80, 0x00, 0x0a]));
  else if (r === 3)
    return encoder.encode(pick(rng, WEIRD_NUMBERS)); // a bare number
  else if (r === 4)
    return encoder.encode('['.repeat(1 + int(rng, 20_000)) + ']'.repeat(int(rng, 20_000))); // deep or unbalanced
  else if (r === 5)
    return encoder.encode(new TextDecoder().decode(body).replace(/-?\d+(\.\d+)?/, pick(rng, WEIRD_NUMBERS))); // weird number token
  else if (r === 6 && bytes.length > 2)
    bytes.splice(int(rng, bytes.length), int(rng, 8)); // deleted slice
  else if (r === 7) return encoder.encode(JSON.stringify(randomValue(rng))); // valid JSON, wrong shape
  return Uint8Array.from(bytes);
}

function u32(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

// Frames one body for the given wire, sometimes with a lying length header or a missing/extra newline.
function frameBody(rng: Rng, wire: Wire, body: Uint8Array, maxFrameBytes: number): Uint8Array[] {
  // framing damage ends a stream at once, so it is rarer than body damage: most frames reach the JSON and schema checks
  if (wire === 'node') {
    const r = int(rng, 40);
    const length =
      r === 0
        ? 0
        : r === 1
          ? maxFrameBytes + 1 + int(rng, 1000)
          : r === 2
            ? int(rng, 2 ** 32)
            : r === 3
              ? Math.max(1, body.length + int(rng, 9) - 4)
              : body.length;
    if (r === 4) return [u32(length)]; // header only
    return [u32(length), body];
  }
  const r = int(rng, 40);
  if (r === 0) return [body]; // newline missing: glued to the next frame
  if (r === 1) return [body, Uint8Array.of(0x0a, 0x0a)]; // an empty frame follows
  if (r === 2) return [body, Uint8Array.of(0x0d, 0x0a)];
  return [body, Uint8Array.of(0x0a)];
}

export interface GeneratedStream {
  bytes: Uint8Array;
  frames: number;
}

// One stream of `count` frames, valid and damaged mixed, as the child would write them.
export function generateStream(
  rng: Rng,
  wire: Wire,
  count: number,
  maxFrameBytes: number,
  noDone = false,
): GeneratedStream {
  const parts: Uint8Array[] = [];
  const state = { nextId: 1, noDone };
  for (let i = 0; i < count; i++) {
    let body: Uint8Array = encoder.encode(JSON.stringify(plausibleFrame(rng, wire, state)));
    if (rng() < 0.5) body = mutateBody(rng, body);
    if (body.length === 0) body = encoder.encode('{}');
    parts.push(...frameBody(rng, wire, body, maxFrameBytes));
  }
  let total = 0;
  for (const p of parts) total += p.length;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, frames: count };
}

export interface PipelineStats {
  frames: number;
  // frames the decoder handed on (the rest followed a framing error that ended the stream)
  delivered: number;
  parsed: number;
  rejected: number;
  errors: number;
  dispatched: number;
}

// The host-side parsing pipeline of one backend: decoder → lossless JSON → zod frame schema → call dispatcher.
// Feeds `bytes` in random chunk sizes; throws only if the pipeline itself throws or breaks an invariant.
export function feedPipeline(
  rng: Rng,
  wire: Wire,
  bytes: Uint8Array,
  maxFrameBytes: number,
  stats: PipelineStats,
): void {
  const dispatcher = new CallDispatcher({
    namespaces: [{ global: 'tools', functions: { echo: async (v) => v } }],
    maxPendingCalls: 128,
    startedAt: performance.now(),
    firstId: 1,
    sendReply: () => undefined,
  });
  let failed = false;
  const onEvent = (event: { kind: 'frame'; text: string } | { kind: 'error'; message: string }): void => {
    if (failed) throw new Error('decoder emitted after it had failed');
    if (event.kind === 'error') {
      failed = true;
      stats.errors++;
      if (typeof event.message !== 'string' || event.message.length === 0)
        throw new Error('error event without a message');
      return;
    }
    stats.delivered++;
    const decoded = decodeLossless(event.text);
    if (!decoded.ok) return void stats.rejected++;
    const parsed =
      wire === 'node' ? ChildFrameSchema.safeParse(decoded.value) : PythonChildFrameSchema.safeParse(decoded.value);
    if (!parsed.success) return void stats.rejected++;
    stats.parsed++;
    const frame = parsed.data;
    if (frame.type === 'call') {
      const before = dispatcher.calls.length;
      const verdict = dispatcher.dispatch(frame.id, frame.global, frame.name, frame.args as never);
      if (verdict.ok) stats.dispatched++;
      else if (dispatcher.calls.length !== before) throw new Error('a rejected call was still recorded');
    }
  };
  if (wire === 'node') {
    const decoder = new FrameDecoder(maxFrameBytes);
    for (let at = 0; at < bytes.length;) {
      const n = 1 + int(rng, 4096);
      decoder.push(Buffer.from(bytes.subarray(at, at + n)), onEvent);
      at += n;
    }
  } else {
    const decoder = new LineDecoder(maxFrameBytes);
    for (let at = 0; at < bytes.length;) {
      const n = 1 + int(rng, 4096);
      decoder.push(bytes.subarray(at, at + n), onEvent);
      if (decoder.buffered > maxFrameBytes)
        throw new Error(`line decoder holds ${decoder.buffered} bytes > cap ${maxFrameBytes}`);
      at += n;
    }
    decoder.end(onEvent);
  }
  dispatcher.settle();
}

// Runs `frames` fuzzed frames through both wires; returns counts. Deterministic for a seed.
export function fuzzParsers(
  seed: number,
  frames: number,
  maxFrameBytes: number,
  onStream?: () => void,
): Record<Wire, PipelineStats> {
  const rng = rngFrom(seed);
  const stats: Record<Wire, PipelineStats> = {
    node: { frames: 0, delivered: 0, parsed: 0, rejected: 0, errors: 0, dispatched: 0 },
    python: { frames: 0, delivered: 0, parsed: 0, rejected: 0, errors: 0, dispatched: 0 },
  };
  let done = 0;
  while (done < frames) {
    const wire: Wire = rng() < 0.5 ? 'node' : 'python';
    const count = Math.min(frames - done, 1 + int(rng, 10));
    const stream = generateStream(rng, wire, count, maxFrameBytes);
    feedPipeline(rng, wire, stream.bytes, maxFrameBytes, stats[wire]);
    stats[wire].frames += count;
    done += count;
    onStream?.();
  }
  return stats;
}
