// Splits a byte stream into newline-terminated UTF-8 lines without copying the pending bytes on every chunk (a 32 MB
// result arrives in thousands of chunks), and refuses a line longer than `maxBytes`.
export class LineSplitter {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #overflowed = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): { lines: string[]; overflow: boolean } {
    const lines: string[] = [];
    if (this.#overflowed) return { lines, overflow: true };
    let start = 0;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, at);
      const whole =
        this.#pending.length === 0
          ? piece
          : Buffer.concat([...this.#pending, piece], this.#pendingBytes + piece.length);
      this.#pending = [];
      this.#pendingBytes = 0;
      if (whole.length > this.maxBytes) return this.#overflow(lines);
      lines.push(whole.toString('utf8').replace(/\r$/, ''));
      start = at + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.#pending.push(rest);
      this.#pendingBytes += rest.length;
      if (this.#pendingBytes > this.maxBytes) return this.#overflow(lines);
    }
    return { lines, overflow: false };
  }

  #overflow(lines: string[]): { lines: string[]; overflow: boolean } {
    this.#overflowed = true;
    this.#pending = [];
    this.#pendingBytes = 0;
    return { lines, overflow: true };
  }
}
