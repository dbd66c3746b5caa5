// Room for one incoming frame whose memory goes back to the operating system the moment the frame is decoded (a
// resizable ArrayBuffer shrunk to zero), not at some later garbage collection: while a 60 MiB frame's text is parsed,
// its bytes no longer count. Address space for `maxBytes` is reserved once; pages are committed only as bytes arrive.
// Under an address-space limit (an inherited RLIMIT_AS) the reservation itself can fail: the bytes then live in plain
// buffers, copied as they grow and dropped (for the garbage collector) on release.
export class ReleasableBytes {
  #buffer: ArrayBuffer;
  readonly #resizable: boolean;

  constructor(readonly maxBytes: number) {
    let buffer: ArrayBuffer;
    try {
      buffer = new ArrayBuffer(0, { maxByteLength: maxBytes });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      buffer = new ArrayBuffer(0);
    }
    this.#buffer = buffer;
    this.#resizable = buffer.resizable;
  }

  get size(): number {
    return this.#buffer.byteLength;
  }

  // Grows (never past maxBytes) so that `size` bytes fit, keeping what is there; returns a view of all of it.
  reserve(size: number): Uint8Array {
    if (size > this.#buffer.byteLength) {
      const grown = Math.min(this.maxBytes, Math.max(size, 2 * this.#buffer.byteLength));
      if (this.#resizable) this.#buffer.resize(grown);
      else {
        const next = new ArrayBuffer(grown);
        new Uint8Array(next).set(new Uint8Array(this.#buffer));
        this.#buffer = next;
      }
    }
    return new Uint8Array(this.#buffer, 0, this.#buffer.byteLength);
  }

  // Decodes the first `length` bytes as UTF-8 (undefined when invalid) and releases the memory.
  takeText(length: number, decoder: { decode(bytes: Uint8Array): string }): string | undefined {
    try {
      return decoder.decode(new Uint8Array(this.#buffer, 0, length));
    } catch {
      return undefined;
    } finally {
      this.release();
    }
  }

  release(): void {
    if (this.#resizable) this.#buffer.resize(0);
    else this.#buffer = new ArrayBuffer(0);
  }
}
