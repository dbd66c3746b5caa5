// Newline-delimited JSON frames (one UTF-8 text per line) on the Python child's fd 3.
// Pure: the decoder never throws on any input and never holds more than one frame's bytes (plus the chunk being
// scanned), whatever the peer sends.
import { ReleasableBytes } from './releasable-bytes.js';

export type LineEvent = { kind: 'frame'; text: string } | { kind: 'error'; message: string };

const NEWLINE = 0x0a;

export class LineDecoder {
  // the unterminated frame's bytes, returned to the OS as soon as the frame is decoded (see ReleasableBytes)
  readonly #pending: ReleasableBytes;
  #buffered = 0;
  #failed = false;
  readonly #utf8 = new TextDecoder('utf-8', { fatal: true });

  // `maxFrameBytes` caps one frame's body (the newline excluded); anything but a positive integer is misuse.
  constructor(private readonly maxFrameBytes: number) {
    if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1)
      throw new TypeError(`LineDecoder: maxFrameBytes must be a positive integer, got ${String(maxFrameBytes)}`);
    this.#pending = new ReleasableBytes(maxFrameBytes);
  }

  get failed(): boolean {
    return this.#failed;
  }

  // Bytes held for the current unterminated frame.
  get buffered(): number {
    return this.#buffered;
  }

  // Feeds bytes; emits each complete frame in order, or one error after which the decoder stays failed.
  push(chunk: Uint8Array, emit: (event: LineEvent) => void): void {
    if (this.#failed) return;
    if (!(chunk instanceof Uint8Array)) return this.#fail(emit, 'control stream delivered a non-byte chunk');
    let start = 0;
    while (!this.#failed) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl < 0) break;
      const size = this.#buffered + (nl - start);
      if (size > this.maxFrameBytes) return this.#fail(emit, this.#oversize(size));
      const tail = chunk.subarray(start, nl);
      start = nl + 1;
      if (size === 0) return this.#fail(emit, 'empty control frame');
      let text: string | undefined;
      if (this.#buffered === 0) text = decodeText(this.#utf8, tail);
      else {
        this.#pending.reserve(size).set(tail, this.#buffered);
        text = this.#pending.takeText(size, this.#utf8);
        this.#buffered = 0;
      }
      if (text === undefined) return this.#fail(emit, 'control frame is not valid UTF-8');
      emit({ kind: 'frame', text });
    }
    if (this.#failed || start >= chunk.length) return;
    const rest = chunk.length - start;
    if (this.#buffered + rest > this.maxFrameBytes) return this.#fail(emit, this.#oversize(this.#buffered + rest));
    // copied: the caller may reuse its buffer, and a held view would pin a large chunk for a small tail
    this.#pending.reserve(this.#buffered + rest).set(chunk.subarray(start), this.#buffered);
    this.#buffered += rest;
  }

  // At end of stream an unterminated frame is an error (a peer cut off mid-write).
  end(emit: (event: LineEvent) => void): void {
    if (this.#failed || this.#buffered === 0) return;
    this.#fail(emit, `control stream ended inside a frame (${this.#buffered} bytes without a newline)`);
  }

  #oversize(size: number): string {
    return `control frame exceeds ${this.maxFrameBytes} bytes (at least ${size})`;
  }

  #fail(emit: (event: LineEvent) => void, message: string): void {
    this.#failed = true;
    this.#pending.release();
    this.#buffered = 0;
    emit({ kind: 'error', message });
  }
}

function decodeText(utf8: { decode(bytes: Uint8Array): string }, bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const encoder = new TextEncoder();

// One frame on the wire: the JSON text and its terminating newline (JSON text never holds a raw newline).
export function encodeLine(text: string): Uint8Array {
  const body = encoder.encode(text);
  const frame = new Uint8Array(body.length + 1);
  frame.set(body, 0);
  frame[body.length] = NEWLINE;
  return frame;
}
