// Length-prefixed frames (4-byte big-endian length + UTF-8 JSON) on the Node child's control descriptors.
import { ReleasableBytes } from './releasable-bytes.js';

export const FRAME_HEADER_BYTES = 4;

export type FrameEvent = { kind: 'frame'; text: string } | { kind: 'error'; message: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

// Incremental decoder: a frame's body is gathered straight into one buffer of its declared length (committed only as
// bytes arrive, so a forged length costs address space, not memory), never a chunk list plus a concatenated copy, and
// that memory is returned as soon as the body is decoded: a 25 MB log frame is held once, and not while it is parsed.
export class FrameDecoder {
  readonly #header = Buffer.alloc(FRAME_HEADER_BYTES);
  #headerFilled = 0;
  readonly #body: ReleasableBytes;
  #bodyFilled = 0;
  #need = -1;
  #failed = false;

  constructor(private readonly maxFrameBytes: number) {
    this.#body = new ReleasableBytes(maxFrameBytes);
  }

  push(chunk: Buffer, emit: (event: FrameEvent) => void): void {
    let at = 0;
    while (!this.#failed && at < chunk.length) {
      if (this.#need < 0) {
        const n = Math.min(FRAME_HEADER_BYTES - this.#headerFilled, chunk.length - at);
        chunk.copy(this.#header, this.#headerFilled, at, at + n);
        this.#headerFilled += n;
        at += n;
        if (this.#headerFilled < FRAME_HEADER_BYTES) return;
        this.#headerFilled = 0;
        const length = this.#header.readUInt32BE(0);
        if (length === 0 || length > this.maxFrameBytes) {
          this.#failed = true;
          emit({ kind: 'error', message: `control frame length ${length} outside 1..${this.maxFrameBytes}` });
          return;
        }
        this.#need = length;
      }
      let text: string | undefined;
      if (this.#bodyFilled === 0 && chunk.length - at >= this.#need) {
        // the whole body is in this chunk: decode it in place
        text = decodeText(chunk.subarray(at, at + this.#need));
        at += this.#need;
      } else {
        const body = this.#body.reserve(this.#need);
        const n = Math.min(this.#need - this.#bodyFilled, chunk.length - at);
        chunk.copy(body, this.#bodyFilled, at, at + n);
        this.#bodyFilled += n;
        at += n;
        if (this.#bodyFilled < this.#need) return;
        text = this.#body.takeText(this.#need, decoder);
        this.#bodyFilled = 0;
      }
      this.#need = -1;
      if (text === undefined) {
        this.#failed = true;
        emit({ kind: 'error', message: 'control frame is not valid UTF-8' });
        return;
      }
      emit({ kind: 'frame', text });
    }
  }
}

function decodeText(body: Uint8Array): string | undefined {
  try {
    return decoder.decode(body);
  } catch {
    return undefined;
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
