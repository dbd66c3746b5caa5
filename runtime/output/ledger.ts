// One byte ledger for logs and the completion (reference §3.4): the JSON size of the `logs` array plus the value.
const stringify = JSON.stringify;
const byteLength = (text: string): number => Buffer.byteLength(text, 'utf8');

export function jsonStringCost(text: string): number {
  return byteLength(stringify(text));
}

// Largest prefix of `text` (cut on a code-point boundary) whose JSON string cost is at most `budget`.
export function fittingPrefix(text: string, budget: number): string {
  if (budget < 2) return '';
  if (jsonStringCost(text) <= budget) return text;
  let lo = 0;
  let hi = Math.min(text.length, budget);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (jsonStringCost(cut(text, mid)) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return cut(text, lo);
}

function cut(text: string, end: number): string {
  // never split a surrogate pair
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, end - 1) : text.slice(0, end);
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
    const separator = this.entries.length > 0 ? 1 : 0;
    const cost = jsonStringCost(text) + separator;
    if (this.#used + cost <= this.maxBytes) {
      this.entries.push({ text, stream });
      this.#used += cost;
      return true;
    }
    this.#overflowed = true;
    const prefix = fittingPrefix(text, this.maxBytes - this.#used - separator);
    if (prefix.length > 0) {
      this.entries.push({ text: prefix, stream });
      this.#used += jsonStringCost(prefix) + separator;
    }
    return false;
  }

  // Whether a completion (value JSON or failure message) of `bytes` still fits next to the logs.
  fits(bytes: number): boolean {
    return this.#used + bytes <= this.maxBytes;
  }

  // Drops trailing log text until `bytes` more fit (so an output-limit diagnostic itself stays within the cap).
  makeRoom(bytes: number): void {
    while (this.entries.length > 0 && this.#used + bytes > this.maxBytes) {
      const last = this.entries.pop() as LedgerEntry;
      const separator = this.entries.length > 0 ? 1 : 0;
      this.#used -= jsonStringCost(last.text) + separator;
      const room = this.maxBytes - bytes - this.#used - separator;
      const prefix = fittingPrefix(last.text, room);
      if (prefix.length > 0) {
        this.entries.push({ text: prefix, stream: last.stream });
        this.#used += jsonStringCost(prefix) + separator;
        return;
      }
    }
  }
}

export function outputLimitMessage(maxBytes: number): string {
  return `outer output exceeded ${maxBytes} bytes`;
}
