// One byte ledger for logs and the completion (reference §3.4): the JSON size of the `logs` array plus the value.
import {
  BufferByteLength,
  JSONStringify as stringify,
  MathCeil,
  MathFloor,
  MathMax,
  MathMin,
  ObjectCreate,
  ObjectDefineProperty,
  StringPrototypeCharCodeAt as charCodeAt,
  StringPrototypeSlice as slice,
} from '../json/primordials.js';

// The Node child uses this ledger after model code may have patched prototypes: captured intrinsics, no push/pop.
const byteLength = (text: string): number => BufferByteLength(text, 'utf8');

// Long text is measured (and written, see TEXT_CHUNK's users) in slices of this many code units, cut so no surrogate
// pair is split: JSON.stringify escapes each code unit on its own except a pair, so slice costs add up exactly and a
// 100 MB log line costs one slice of memory, never an escaped copy of the whole line.
export const TEXT_CHUNK = 1 << 16;

// The end of the slice of `text` that starts at `start`.
export function chunkEnd(text: string, start: number): number {
  const end = start + TEXT_CHUNK;
  if (end >= text.length) return text.length;
  return charCodeAt(text, end - 1) >= 0xd800 &&
    charCodeAt(text, end - 1) <= 0xdbff &&
    charCodeAt(text, end) >= 0xdc00 &&
    charCodeAt(text, end) <= 0xdfff
    ? end - 1
    : end;
}

// Bytes of the escaped slice text[start, end) without its quotes.
function sliceCost(text: string, start: number, end: number): number {
  return byteLength(stringify(slice(text, start, end))) - 2;
}

export function jsonStringCost(text: string): number {
  if (text.length <= TEXT_CHUNK) return byteLength(stringify(text));
  let cost = 2;
  for (let at = 0; at < text.length;) {
    const end = chunkEnd(text, at);
    cost += sliceCost(text, at, end);
    at = end;
  }
  return cost;
}

// Largest prefix of `text` (cut on a code-point boundary) whose JSON string cost is at most `budget`: slices are
// measured until one does not fit, and only that slice is searched.
export function fittingPrefix(text: string, budget: number): string {
  if (budget < 2) return '';
  let used = 2;
  for (let at = 0; at < text.length;) {
    const end = chunkEnd(text, at);
    const cost = sliceCost(text, at, end);
    if (used + cost > budget) {
      let lo = at;
      let hi = MathMin(end, at + budget - used);
      while (lo < hi) {
        const mid = MathCeil((lo + hi) / 2);
        if (used + sliceCost(text, at, cutAt(text, mid)) <= budget) lo = mid;
        else hi = mid - 1;
      }
      return cut(text, lo);
    }
    used += cost;
    at = end;
  }
  return text;
}

// `end`, one less if it would split a surrogate pair (a lone high surrogate is cut after, like any character).
function cutAt(text: string, end: number): number {
  const last = charCodeAt(text, end - 1);
  const next = charCodeAt(text, end);
  return last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? end - 1 : end;
}

function cut(text: string, end: number): string {
  // never split a surrogate pair
  return slice(text, 0, cutAt(text, end));
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

export type Admitted = { text: string | undefined; fitted: boolean };

// Whether joining `before` and `after` makes a surrogate pair of a lone high and a lone low surrogate (each escaped
// as 6 bytes on its own, 4 bytes together).
function pairsAcross(before: string, after: string): boolean {
  if (before.length === 0 || after.length === 0) return false;
  const last = charCodeAt(before, before.length - 1);
  const first = charCodeAt(after, 0);
  return last >= 0xd800 && last <= 0xdbff && first >= 0xdc00 && first <= 0xdfff;
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
  // the stream whose last entry is an unterminated line that its next text continues (an explicit flush)
  #open: 'stdout' | 'stderr' | undefined;

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

  // The stream of the last entry while it is open (its line not yet terminated), else undefined.
  get openStream(): 'stdout' | 'stderr' | undefined {
    return this.#open;
  }

  // The output-limit diagnostic for this ledger's overflow: the byte cap (the usual case) or the entry count.
  limitMessage(): string {
    return this.#tooMany ? `outer output exceeded ${this.maxEntries} log entries` : outputLimitMessage(this.maxBytes);
  }

  // Appends a log entry; on overflow keeps the fitting prefix and refuses everything after.
  addLog(text: string, stream: 'stdout' | 'stderr'): boolean {
    return this.admit(text, stream, false).fitted;
  }

  // Appends text to the logs and says what was kept. Text of the stream whose last entry is open continues that entry
  // (billed once, as one string); `open` leaves this text's entry open for the next text of its stream. On overflow the
  // fitting prefix is kept and everything after is refused.
  admit(text: string, stream: 'stdout' | 'stderr', open: boolean): Admitted {
    if (this.#overflowed) return { text: undefined, fitted: false };
    const count = this.#texts.length;
    const continues = this.#open === stream && count > 0;
    this.#open = open ? stream : undefined;
    if (continues) return this.#continue(text);
    if (count >= this.maxEntries) {
      this.#overflowed = true;
      this.#tooMany = true;
      this.#open = undefined;
      return { text: undefined, fitted: false };
    }
    const separator = count > 0 ? 1 : 0;
    // every character costs at least one byte: text longer than the room is never measured whole
    const room = this.maxBytes - this.#used - separator;
    const cost = text.length + 2 > room ? room + 1 : jsonStringCost(text);
    if (cost <= room) {
      this.#push(text, stream);
      this.#used += cost + separator;
      return { text, fitted: true };
    }
    this.#overflowed = true;
    this.#open = undefined;
    const prefix = fittingPrefix(text, this.maxBytes - this.#used - separator);
    if (prefix.length === 0) return { text: undefined, fitted: false };
    this.#push(prefix, stream);
    this.#used += jsonStringCost(prefix) + separator;
    return { text: prefix, fitted: false };
  }

  #continue(text: string): Admitted {
    const index = this.#texts.length - 1;
    const last = this.#texts[index] as string;
    const room = this.maxBytes - this.#used;
    const adjust = pairsAcross(last, text) ? -8 : 0;
    const cost = text.length > room + 8 ? room + 1 : jsonStringCost(text) - 2 + adjust;
    if (cost <= room) {
      // an own index that exists: a plain write, no accessor on Array.prototype is consulted
      this.#texts[index] = last + text;
      this.#used += cost;
      return { text, fitted: true };
    }
    this.#overflowed = true;
    this.#open = undefined;
    const prefix = fittingPrefix(text, room + 2);
    if (prefix.length === 0) return { text: undefined, fitted: false };
    this.#used += jsonStringCost(prefix) - 2 + (pairsAcross(last, prefix) ? -8 : 0);
    this.#texts[index] = last + prefix;
    return { text: prefix, fitted: false };
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
