// One byte ledger for logs and the completion (reference §3.4): the JSON size of the `logs` array plus the value.
import { fittingLength, jsonStringBytes } from '../json/json-size.js';
import { ObjectCreate, ObjectDefineProperty, StringPrototypeSlice as slice } from '../json/primordials.js';

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
function append(entries: LedgerEntry[], entry: LedgerEntry): void {
  entryDescriptor.value = entry;
  ObjectDefineProperty(entries, entries.length, entryDescriptor);
  entryDescriptor.value = undefined;
}

export interface LedgerEntry {
  text: string;
  stream: 'stdout' | 'stderr';
}

export class OutputLedger {
  readonly entries: LedgerEntry[] = [];
  #used = 2;
  #overflowed = false;

  constructor(readonly maxBytes: number) {}

  get used(): number {
    return this.#used;
  }

  get overflowed(): boolean {
    return this.#overflowed;
  }

  // Appends a log entry; on overflow keeps the fitting prefix and refuses everything after.
  addLog(text: string, stream: 'stdout' | 'stderr'): boolean {
    if (this.#overflowed) return false;
    const entries = this.entries;
    const separator = entries.length > 0 ? 1 : 0;
    const cost = jsonStringCost(text) + separator;
    if (this.#used + cost <= this.maxBytes) {
      append(entries, { text, stream });
      this.#used += cost;
      return true;
    }
    this.#overflowed = true;
    const prefix = fittingPrefix(text, this.maxBytes - this.#used - separator);
    if (prefix.length > 0) {
      append(entries, { text: prefix, stream });
      this.#used += jsonStringCost(prefix) + separator;
    }
    return false;
  }

  // The entry at `index`, or undefined past the end (never reads a missing index, which would consult Array.prototype).
  entryAt(index: number): LedgerEntry | undefined {
    return index < this.entries.length ? this.entries[index] : undefined;
  }

  // Whether a completion (value JSON or failure message) of `bytes` still fits next to the logs.
  fits(bytes: number): boolean {
    return this.#used + bytes <= this.maxBytes;
  }

  // Drops trailing log text until `bytes` more fit (so an output-limit diagnostic itself stays within the cap).
  makeRoom(bytes: number): void {
    const entries = this.entries;
    while (entries.length > 0 && this.#used + bytes > this.maxBytes) {
      const last = entries[entries.length - 1] as LedgerEntry;
      entries.length--;
      const separator = entries.length > 0 ? 1 : 0;
      this.#used -= jsonStringCost(last.text) + separator;
      const room = this.maxBytes - bytes - this.#used - separator;
      const prefix = fittingPrefix(last.text, room);
      if (prefix.length > 0) {
        append(entries, { text: prefix, stream: last.stream });
        this.#used += jsonStringCost(prefix) + separator;
        return;
      }
    }
  }
}

export function outputLimitMessage(maxBytes: number): string {
  return `outer output exceeded ${maxBytes} bytes`;
}
