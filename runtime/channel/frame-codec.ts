// Length-prefixed frames (4-byte big-endian length + UTF-8 JSON) on the Node child's control descriptors.
export const FRAME_HEADER_BYTES = 4;

export type FrameEvent =
  | { kind: 'frame'; text: string }
  | { kind: 'error'; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

// Incremental, allocation-bounded decoder: never buffers more than one frame plus one header.
export class FrameDecoder {
  #chunks: Buffer[] = [];
  #buffered = 0;
  #need = -1;
  #failed = false;

  constructor(private readonly maxFrameBytes: number) {}

  push(chunk: Buffer, emit: (event: FrameEvent) => void): void {
    if (this.#failed) return;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    while (!this.#failed) {
      if (this.#need < 0) {
        if (this.#buffered < FRAME_HEADER_BYTES) return;
        const header = this.#take(FRAME_HEADER_BYTES);
        const length = header.readUInt32BE(0);
        if (length === 0 || length > this.maxFrameBytes) {
          this.#failed = true;
          emit({ kind: 'error', message: `control frame length ${length} outside 1..${this.maxFrameBytes}` });
          return;
        }
        this.#need = length;
      }
      if (this.#buffered < this.#need) return;
      const body = this.#take(this.#need);
      this.#need = -1;
      let text: string;
      try {
        text = decoder.decode(body);
      } catch {
        this.#failed = true;
        emit({ kind: 'error', message: 'control frame is not valid UTF-8' });
        return;
      }
      emit({ kind: 'frame', text });
    }
  }

  #take(n: number): Buffer {
    const first = this.#chunks[0] as Buffer;
    let out: Buffer;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    } else {
      const all = Buffer.concat(this.#chunks);
      out = all.subarray(0, n);
      this.#chunks = all.length > n ? [all.subarray(n)] : [];
    }
    this.#buffered -= n;
    return out;
  }
}

// One allocation, the text encoded straight into place.
export function encodeFrame(text: string): Buffer {
  const length = Buffer.byteLength(text, 'utf8');
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + length);
  frame.writeUInt32BE(length, 0);
  frame.write(text, FRAME_HEADER_BYTES, 'utf8');
  return frame;
}
