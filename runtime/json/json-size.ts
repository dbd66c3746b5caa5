import type { JsonValue } from '../protocol/json-value.js';
import {
  ArrayIsArray as isArray,
  BufferByteLength,
  JSONStringify as stringify,
  MathMin,
  ObjectKeys as objectKeys,
  setIndex,
  StringCtor,
  StringPrototypeCharCodeAt as charCodeAt,
  StringPrototypeSlice as slice,
} from './primordials.js';

// UTF-8 sizes of JSON text, measured without writing it: billing a 64 MiB log line or return value must not cost a
// second 64 MiB copy. Captured intrinsics, as the Node child's ledger runs this after model code may patch prototypes.

// Text longer than this is measured a slice at a time, so the escaped copy JSON.stringify makes stays small.
const SLICE = 1024 * 1024;

// Byte length of JSON.stringify(text) in UTF-8.
export function jsonStringBytes(text: string): number {
  const n = text.length;
  if (n <= SLICE) return BufferByteLength(stringify(text), 'utf8');
  let bytes = 2;
  for (let at = 0; at < n;) {
    let end = MathMin(n, at + SLICE);
    // a surrogate pair split between slices would be measured as two lone (escaped) halves
    if (end < n && isHighSurrogate(charCodeAt(text, end - 1))) end--;
    bytes += BufferByteLength(stringify(slice(text, at, end)), 'utf8') - 2;
    at = end;
  }
  return bytes;
}

const CHUNK = 64 * 1024;

// Length (in UTF-16 units) of the longest prefix of `text` whose JSON string costs at most `budget` bytes; never ends
// between the halves of a surrogate pair. Linear: whole chunks are measured natively, only the last one per character.
export function fittingLength(text: string, budget: number): number {
  if (budget < 2) return 0;
  let used = 2;
  let at = 0;
  const n = text.length;
  while (at < n) {
    let end = MathMin(n, at + CHUNK);
    if (end < n && isHighSurrogate(charCodeAt(text, end - 1))) end--;
    const cost = jsonStringBytes(slice(text, at, end)) - 2;
    if (used + cost > budget) break;
    used += cost;
    at = end;
  }
  while (at < n) {
    const step =
      isHighSurrogate(charCodeAt(text, at)) && at + 1 < n && isLowSurrogate(charCodeAt(text, at + 1)) ? 2 : 1;
    const cost = jsonStringBytes(slice(text, at, at + step)) - 2;
    if (used + cost > budget) break;
    used += cost;
    at += step;
  }
  return at;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

type Frame =
  | { items: readonly JsonValue[]; record: undefined; keys: undefined; next: number }
  | { items: undefined; record: { [key: string]: JsonValue }; keys: string[]; next: number };

// Byte length of the compact JSON text of a checked value, walked without recursion and without writing it (a frame
// per open container, so a wide array costs no stack of its items).
export function jsonByteLength(root: JsonValue): number {
  const stack: Frame[] = [];
  let top = 0;
  let bytes = 0;
  let pending: JsonValue | undefined = root;
  for (;;) {
    if (pending !== undefined) {
      const value: JsonValue = pending;
      pending = undefined;
      if (value === null) bytes += 4;
      else if (typeof value === 'boolean') bytes += value ? 4 : 5;
      else if (typeof value === 'number') bytes += StringCtor(value).length;
      else if (typeof value === 'string') bytes += jsonStringBytes(value);
      else if (isArray(value)) {
        // brackets and the commas between items
        bytes += 2 + (value.length > 0 ? value.length - 1 : 0);
        setIndex(stack, top++, { items: value, record: undefined, keys: undefined, next: 0 });
      } else {
        const keys = objectKeys(value);
        // braces, commas, and a colon per key
        bytes += 2 + (keys.length > 0 ? keys.length - 1 : 0) + keys.length;
        setIndex(stack, top++, { items: undefined, record: value, keys, next: 0 });
      }
    }
    if (top === 0) return bytes;
    const frame = stack[top - 1] as Frame;
    if (frame.items !== undefined) {
      if (frame.next < frame.items.length) pending = frame.items[frame.next++] as JsonValue;
      else top--;
    } else if (frame.next < frame.keys.length) {
      const key = frame.keys[frame.next++] as string;
      bytes += jsonStringBytes(key);
      pending = frame.record[key] as JsonValue;
    } else top--;
  }
}
