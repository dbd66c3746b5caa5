// One byte ledger for logs and the completion (reference §3.4): the JSON size of the `logs` array plus the value.
import { fittingLength, jsonStringBytes } from '../json/json-size.js';
import { MathFloor, MathMax, ObjectCreate, ObjectDefineProperty, StringPrototypeSlice as slice } from '../json/primordials.js';

// The Node child uses this ledger after model code may have patched prototypes: captured intrinsics, no push/pop.
// Sizes are measured without writing the JSON (a 64 MiB line is not copied to be billed).
export const jsonStringCost = jsonStringBytes;

// Largest prefix of `text` (cut on a code-point boundary) whose JSON string cost is at most `budget`.
export function fittingPrefix(text: string, budget: number): string {
  const length = fittingLength(text, budget);
  return length === text.length ? text : slice(text, 0, length);
}

// Appends with a define, not a write: a write to a new index would call an accessor the program planted on
// Array.prototype (the child keeps logging, and so reporting, after such a patch).
const entryDescriptor = ObjectCreate(null) as PropertyDescriptor;
entryDescriptor.writable = true;
entryDescriptor.enumerable = true;
entryDescriptor.configurable = true;
function append<T>(list: T[], item: T): void {
  entryDescriptor.value = item;
  ObjectDefineProperty(list, list.length, entryDescriptor);
  entryDescriptor.value = undefined;
}

export interface LedgerEntry {
  text: string;
  stream: 'stdout' | 'stderr';
}

// A host run keeps at most this many log entries per byte of the cap (and never fewer than MIN_LOG_ENTRIES): every
// entry costs the host a slot and a string (≈20–60 bytes in V8) however few bytes it bills (3 for an empty line), so a
// flood of empty lines would otherwise cost the host ~20× the cap (1.2 GB at 64 MiB). Past it the run ends as
// output-limit, as it would past the cap.
const BYTES_PER_ENTRY = 64;
export const MIN_LOG_ENTRIES = 65_536;
export function maxLogEntries(maxBytes: number): number {
  return MathMax(MIN_LOG_ENTRIES, MathFloor(maxBytes / BYTES_PER_ENTRY));
}

// Entries are held as two flat lists (texts, and the indices that came from stderr), not an object per entry: the
// texts are the result's `logs` as they are, with no copy and no per-entry object.
export class OutputLedger {
  readonly #texts: string[] = [];
  readonly #stderr: number[] = [];
  readonly maxEntries: number;
  #used = 2;
  #overflowed = false;
  #tooMany = false;

  // `maxEntries` bounds the number of entries (the host passes maxLogEntries; the child counts bytes only)
  constructor(
    readonly maxBytes: number,
    options: { maxEntries?: number } = {},
  ) {
    this.maxEntries = options.maxEntries ?? Infinity;
  }

  get used(): number {
    return this.#used;
  }

  get overflowed(): boolean {
    return this.#overflowed;
  }

  // The output-limit diagnostic for this ledger's overflow: the byte cap (the usual case) or the entry count.
  limitMessage(): string {
    return this.#tooMany ? `outer output exceeded ${this.maxEntries} log entries` : outputLimitMessage(this.maxBytes);
  }

  get length(): number {
    return this.#texts.length;
  }

  // The entries' texts in order (the result's `logs`; not to be changed by the caller).
  get texts(): readonly string[] {
    return this.#texts;
  }

  // Indices of the entries that came from stderr, ascending.
  get stderrIndices(): readonly number[] {
    return this.#stderr;
  }

  // Appends a log entry; on overflow keeps the fitting prefix and refuses everything after.
  addLog(text: string, stream: 'stdout' | 'stderr'): boolean {
    if (this.#overflowed) return false;
    if (this.#texts.length >= this.maxEntries) {
      this.#overflowed = true;
      this.#tooMany = true;
      return false;
    }
    const separator = this.#texts.length > 0 ? 1 : 0;
    const cost = jsonStringCost(text) + separator;
    if (this.#used + cost <= this.maxBytes) {
      this.#push(text, stream);
      this.#used += cost;
      return true;
    }
    this.#overflowed = true;
    const prefix = fittingPrefix(text, this.maxBytes - this.#used - separator);
    if (prefix.length > 0) {
      this.#push(prefix, stream);
      this.#used += jsonStringCost(prefix) + separator;
    }
    return false;
  }

  // The entry at `index`, or undefined past the end (never reads a missing index, which would consult Array.prototype).
  entryAt(index: number): LedgerEntry | undefined {
    if (index >= this.#texts.length) return undefined;
    return { text: this.#texts[index] as string, stream: this.#isStderr(index) ? 'stderr' : 'stdout' };
  }

  // Whether some stderr entry's text matches (diagnosing how a child died).
  someStderr(test: (text: string) => boolean): boolean {
    const stderr = this.#stderr;
    for (let i = 0; i < stderr.length; i++) if (test(this.#texts[stderr[i] as number] as string)) return true;
    return false;
  }

  // Whether a completion (value JSON or failure message) of `bytes` still fits next to the logs.
  fits(bytes: number): boolean {
    return this.#used + bytes <= this.maxBytes;
  }

  // Drops trailing log text until `bytes` more fit (so an output-limit diagnostic itself stays within the cap).
  makeRoom(bytes: number): void {
    const texts = this.#texts;
    while (texts.length > 0 && this.#used + bytes > this.maxBytes) {
      const index = texts.length - 1;
      const last = texts[index] as string;
      const stream = this.#isStderr(index) ? 'stderr' : 'stdout';
      texts.length--;
      if (stream === 'stderr') this.#stderr.length--;
      const separator = texts.length > 0 ? 1 : 0;
      this.#used -= jsonStringCost(last) + separator;
      const room = this.maxBytes - bytes - this.#used - separator;
      const prefix = fittingPrefix(last, room);
      if (prefix.length > 0) {
        this.#push(prefix, stream);
        this.#used += jsonStringCost(prefix) + separator;
        return;
      }
    }
  }

  #push(text: string, stream: 'stdout' | 'stderr'): void {
    if (stream === 'stderr') append(this.#stderr, this.#texts.length);
    append(this.#texts, text);
  }

  // stderr indices ascend: the last one is checked first (the common question is about the newest entry), then a
  // binary search
  #isStderr(index: number): boolean {
    const stderr = this.#stderr;
    if (stderr.length === 0) return false;
    if (stderr[stderr.length - 1] === index) return true;
    let lo = 0;
    let hi = stderr.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = stderr[mid] as number;
      if (at === index) return true;
      if (at < index) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}

export function outputLimitMessage(maxBytes: number): string {
  return `outer output exceeded ${maxBytes} bytes`;
}
