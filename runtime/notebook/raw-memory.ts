import { encodeChecked } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';

// Content-addressed memory of the verbatim source of unknown metadata values, so a save writes them back
// byte for byte (number spellings, escapes, integer-like key order) even after a trip through VS Code.
export class RawSliceMemory {
  readonly #slices = new Map<string, string>();
  readonly #maxChars: number;
  #chars = 0;

  constructor(maxChars = 8 * 1024 * 1024) {
    this.#maxChars = maxChars;
  }

  // Remembers `raw` as the spelling of `value`, unless it is already the canonical spelling.
  remember(value: JsonValue, raw: string, canonical: string): void {
    if (raw === canonical || raw.length > this.#maxChars) return;
    const key = fingerprint(value);
    this.#forget(key);
    this.#slices.set(key, raw);
    this.#chars += key.length + raw.length;
    for (const [oldest, slice] of this.#slices) {
      if (this.#chars <= this.#maxChars) break;
      this.#slices.delete(oldest);
      this.#chars -= oldest.length + slice.length;
    }
  }

  // The remembered spelling of a value equal to `value`, if any.
  recall(value: JsonValue): string | undefined {
    if (this.#slices.size === 0) return undefined;
    return this.#slices.get(fingerprint(value));
  }

  get size(): number {
    return this.#slices.size;
  }

  #forget(key: string): void {
    const old = this.#slices.get(key);
    if (old === undefined) return;
    this.#slices.delete(key);
    this.#chars -= key.length + old.length;
  }
}

function fingerprint(value: JsonValue): string {
  return encodeChecked(value, 0);
}
