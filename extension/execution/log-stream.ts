export interface LogStreamOptions {
  // writes one batch as one stream output; calls are serialised
  write: (text: string, stream: LogEntry['stream']) => Promise<void>;
  flushAfterMs?: number;
  // a batch is written early once it holds this many characters
  batchChars?: number;
  // live output stops after this many characters; the final result still has every log
  maxChars?: number;
  pausedNotice: string;
}

// Batches live log entries into few output writes (one IPC call each) and bounds what is streamed.
export class LogStream {
  readonly #options: Required<LogStreamOptions>;
  #batch: LogEntry[] = [];
  #batchChars = 0;
  #streamed = 0;
  #paused = false;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writes: Promise<void> = Promise.resolve();
  #onWriteError: (error: unknown) => void;

  constructor(options: LogStreamOptions, onWriteError: (error: unknown) => void) {
    this.#options = { flushAfterMs: 80, batchChars: 32 * 1024, maxChars: 1024 * 1024, ...options };
    this.#onWriteError = onWriteError;
  }

  push(entry: LogEntry): void {
    if (this.#closed || this.#paused) return;
    const remaining = this.#options.maxChars - this.#streamed - this.#batchChars;
    if (entry.text.length + 1 > remaining) {
      this.#paused = true;
      if (remaining > 0) this.#batch.push({ text: entry.text.slice(0, remaining), stream: entry.stream });
      this.#batch.push({ text: this.#options.pausedNotice, stream: 'stderr' });
      this.#flush();
      return;
    }
    this.#batch.push(entry);
    this.#batchChars += entry.text.length + 1;
    if (this.#batchChars >= this.#options.batchChars) this.#flush();
    else this.#timer ??= setTimeout(() => this.#flush(), this.#options.flushAfterMs);
  }

  // Stops streaming and waits for every write already started, so the final output lands last.
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#batch = [];
    await this.#writes;
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#batch;
    this.#batch = [];
    this.#streamed += this.#batchChars;
    this.#batchChars = 0;
    // consecutive entries of one stream become one write
    const groups: LogEntry[] = [];
    for (const entry of batch) {
      const last = groups[groups.length - 1];
      if (last !== undefined && last.stream === entry.stream) last.text += `\n${entry.text}`;
      else groups.push({ ...entry });
    }
    for (const group of groups) {
      this.#writes = this.#writes
        .then(() => (this.#closed ? undefined : this.#options.write(`${group.text}\n`, group.stream)))
        .catch(this.#onWriteError);
    }
  }
}
import type { LogEntry } from '../../runtime/index.js';
