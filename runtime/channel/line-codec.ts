// Newline-delimited JSON frames (one UTF-8 text per line) on the Python child's fd 3.
// Pure and dependency-free: the decoder never throws on any input and never holds more than one
// frame's bytes (plus the chunk being scanned), whatever the peer sends.

export type LineEvent = { kind: 'frame'; text: string } | { kind: 'error'; message: string };

const NEWLINE = 0x0a;

export class LineDecoder {
  #chunks: Uint8Array[] = [];
  #buffered = 0;
  #failed = false;
  readonly #utf8 = new TextDecoder('utf-8', { fatal: true });

  // `maxFrameBytes` caps one frame's body (the newline excluded); anything but a positive integer is misuse.
  constructor(private readonly maxFrameBytes: number) {
    if (!Number.isSafeInteger(maxFrameBytes) || maxFrameBytes < 1)
      throw new TypeError(`LineDecoder: maxFrameBytes must be a positive integer, got ${String(maxFrameBytes)}`);
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
      const body = this.#chunks.length === 0 ? tail : concat([...this.#chunks, tail], size);
      this.#chunks = [];
      this.#buffered = 0;
      start = nl + 1;
      if (body.length === 0) return this.#fail(emit, 'empty control frame');
      let text: string;
      try {
        text = this.#utf8.decode(body);
      } catch {
        return this.#fail(emit, 'control frame is not valid UTF-8');
      }
      emit({ kind: 'frame', text });
    }
    if (this.#failed || start >= chunk.length) return;
    const rest = chunk.length - start;
    if (this.#buffered + rest > this.maxFrameBytes) return this.#fail(emit, this.#oversize(this.#buffered + rest));
    // copied: the caller may reuse its buffer, and a held view would pin a large chunk for a small tail
    this.#chunks.push(chunk.slice(start));
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
    this.#chunks = [];
    this.#buffered = 0;
    emit({ kind: 'error', message });
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
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
