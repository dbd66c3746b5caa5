import type { JsonValue } from '../protocol/json-value.js';

import {
  ArrayIsArray as isArray,
  ArrayPrototype as ArrayProto,
  ArrayPrototypeJoin as join,
  ErrorCtor,
  FunctionPrototypeHasInstance,
  JSONParse as parse,
  JSONStringify as stringify,
  NumberCtor,
  NumberIsFinite as numberIsFinite,
  NumberIsInteger as numberIsInteger,
  BigIntCtor,
  ObjectCreate,
  ObjectDefineProperty,
  ObjectIs as objectIs,
  ObjectKeys as objectKeys,
  ObjectPrototype as ObjectProto,
  RangeErrorCtor,
  RegExpPrototypeExec,
  setIndex,
  StringCtor,
  StringPrototypeCharCodeAt as charCodeAt,
  StringPrototypeSlice as slice,
} from './primordials.js';
import { capMiddle, capText, MAX_PATH_KEY_CHARS } from '../output/diagnostic.js';
import { walkJson } from './walk.js';

// The Node child runs these after model code that may patch Array/String/Set prototypes: captured intrinsics only,
// and stacks grown by index with their own counters (no push/pop/iterators). See walk.ts for the one walk behind them.
export type LosslessCheck = { ok: true; depth: number } | { ok: false; reason: string };

// Native JSON recurses; beyond this depth we switch to the iterative encoder/decoder.
const NATIVE_DEPTH_LIMIT = 2_000;
const UNBOUNDED = Number.POSITIVE_INFINITY;

// Checks, without recursion and in memory bounded by the depth, that a value is lossless JSON (the rule is in walk.ts;
// accessors are read once).
export function checkLossless(root: unknown): LosslessCheck {
  const walked = walkJson(root, { emit: false, sorted: false, budget: UNBOUNDED, track: false });
  if (walked.ok) return { ok: true, depth: walked.depth };
  return { ok: false, reason: walked.kind === 'lossy' ? walked.reason : 'over budget' };
}

// Serialises an already-checked value; iterative past the native recursion limit.
export function encodeChecked(value: JsonValue, depth: number): string {
  // native JSON.stringify honours an inherited toJSON (a polluted prototype): the checked value would not be what is
  // sent
  const inheritedToJson = 'toJSON' in ObjectProto || 'toJSON' in ArrayProto;
  if (depth < NATIVE_DEPTH_LIMIT && !inheritedToJson) {
    try {
      return stringify(value);
    } catch (error) {
      if (!isRangeError(error)) throw error;
    }
  }
  return encodeJson(value, false);
}

const isRangeError = (error: unknown): boolean => FunctionPrototypeHasInstance(RangeErrorCtor, error);

// Iterative JSON text of a value (never consults toJSON); `sorted` gives canonical key order.
function encodeJson(root: JsonValue, sorted: boolean): string {
  const walked = walkJson(root, { emit: true, sorted, budget: UNBOUNDED, track: false });
  if (!walked.ok) throw new ErrorCtor(`not lossless JSON: ${walked.kind === 'lossy' ? walked.reason : 'over budget'}`);
  return joinParts(walked.parts, walked.partCount);
}

function joinParts(parts: string[], count: number): string {
  return count === 1 ? (parts[0] as string) : join(parts, '');
}

export type EncodeResult = { ok: true; text: string } | { ok: false; reason: string };

// Validates and serialises in one walk.
export function encodeLossless(value: unknown): EncodeResult {
  const walked = walkJson(value, { emit: true, sorted: false, budget: UNBOUNDED, track: false });
  if (!walked.ok) return { ok: false, reason: walked.kind === 'lossy' ? walked.reason : 'over budget' };
  return { ok: true, text: joinParts(walked.parts, walked.partCount) };
}

export type Snapshot = { ok: true; value: JsonValue; text: string } | { ok: false; reason: string };

// What the host keeps of a value it sends: the text, and the value itself, or (when reading it ran getters, which may
// answer differently next time) the value decoded from that text, so the record says what crossed.
export function snapshotLossless(value: unknown): Snapshot {
  const walked = walkJson(value, { emit: true, sorted: false, budget: UNBOUNDED, track: true });
  if (!walked.ok) return { ok: false, reason: walked.kind === 'lossy' ? walked.reason : 'over budget' };
  const text = joinParts(walked.parts, walked.partCount);
  if (!walked.accessors) return { ok: true, value: value as JsonValue, text };
  const decoded = decodeLossless(text);
  return decoded.ok ? { ok: true, value: decoded.value, text } : decoded;
}

export type BudgetedEncoding =
  | { ok: true; parts: string[]; partCount: number; bytes: number }
  | { ok: false; kind: 'lossy'; reason: string }
  | { ok: false; kind: 'over-budget' };

// Validates and serialises in one walk into chunks of text, stopping once the UTF-8 text is certainly over `budget`
// bytes: what the Node child sends (a completion is metered against what the output ledger has left).
export function encodeWithin(value: unknown, budget: number): BudgetedEncoding {
  const walked = walkJson(value, { emit: true, sorted: false, budget, track: false });
  if (!walked.ok) return walked;
  return { ok: true, parts: walked.parts, partCount: walked.partCount, bytes: walked.bytes };
}

export type DecodeResult = { ok: true; value: JsonValue } | { ok: false; reason: string };

// Parses JSON text that came from an untrusted peer, then re-checks losslessness (e.g. `-0`, `1e400`).
export function decodeLossless(text: string): DecodeResult {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    if (!isRangeError(error)) return { ok: false, reason: 'malformed JSON' };
    const deep = parseIterative(text);
    if (!deep.ok) return deep;
    value = deep.value;
  }
  const check = checkParsed(value);
  if (check === UNSAFE_INTEGER) {
    // rare: only text holding an integer past 2^53 is scanned, for a spelling the parse rounded
    const rounded = roundedIntegerToken(text);
    return rounded === undefined
      ? { ok: true, value: value as JsonValue }
      : {
          ok: false,
          reason: `${capText(rounded, 64)} is an integer outside the safe range that a double cannot hold exactly`,
        };
  }
  return check === undefined ? { ok: true, value: value as JsonValue } : { ok: false, reason: check };
}

// checkParsed's answer when the value is lossless but holds an integer-valued number past ±(2^53 − 1)
const UNSAFE_INTEGER = '\u0000unsafe-integer';

// The first integer token (digits only: no fraction, no exponent) outside strings that names another integer than the
// double JSON.parse made of it: 9007199254740993 parses as 9007199254740992, a silent change of the peer's value. A
// token passes when it is that double's own spelling (ECMAScript's shortest round trip, what both children write:
// 2^60 as 1152921504606847000) or its exact value (1152921504606846976).
function roundedIntegerToken(text: string): string | undefined {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = charCodeAt(text, i);
    if (c === 34) {
      const end = scanString(text, i);
      if (end < 0) return undefined;
      i = end;
      continue;
    }
    const digit = c >= 48 && c <= 57;
    if (!digit && c !== 45) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n) {
      const d = charCodeAt(text, end);
      if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) end++;
      else break;
    }
    const token = slice(text, i, end);
    i = end;
    if (RegExpPrototypeExec(INTEGER_TOKEN, token) === null) continue;
    const parsed = NumberCtor(token);
    if (parsed <= MAX_SAFE && parsed >= -MAX_SAFE) continue;
    if (`${parsed}` !== token && BigIntCtor(token) !== BigIntCtor(parsed)) return token;
  }
  return undefined;
}

const INTEGER_TOKEN = /^-?\d+$/;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

// What JSON.parse produced is plain arrays and objects of data properties: only its numbers can still be lossy
// (`-0`, `1e400`). Iterative, in memory bounded by the depth.
function checkParsed(root: unknown): string | undefined {
  if (root === null || typeof root !== 'object') {
    if (typeof root !== 'number') return undefined;
    if (!finiteNonNegativeZero(root)) return `$ is ${objectIs(root, -0) ? '-0' : StringCtor(root)}`;
    return (root > MAX_SAFE || root < -MAX_SAFE) && numberIsInteger(root) ? UNSAFE_INTEGER : undefined;
  }
  let unsafe = false;
  const containers: object[] = [root];
  const keyLists: (string[] | undefined)[] = [isArray(root) ? undefined : objectKeys(root)];
  const positions: number[] = [0];
  let top = 1;
  descend: while (top > 0) {
    const at = top - 1;
    const keys = keyLists[at];
    const container = containers[at] as Record<string, unknown> & unknown[];
    const length = keys === undefined ? container.length : keys.length;
    // scalars in place; the first nested container is entered before the rest of this one
    for (let position = positions[at] as number; position < length; position++) {
      const value: unknown = keys === undefined ? container[position] : container[keys[position] as string];
      if (typeof value === 'number') {
        if (finiteNonNegativeZero(value)) {
          if (value > MAX_SAFE || value < -MAX_SAFE) unsafe ||= numberIsInteger(value);
          continue;
        }
        positions[at] = position + 1;
        return `${parsedPath(keyLists, positions, top)} is ${objectIs(value, -0) ? '-0' : StringCtor(value)}`;
      }
      if (value === null || typeof value !== 'object') continue;
      positions[at] = position + 1;
      setIndex(containers, top, value);
      setIndex(keyLists, top, isArray(value) ? undefined : objectKeys(value));
      setIndex(positions, top, 0);
      top++;
      continue descend;
    }
    top--;
  }
  return unsafe ? UNSAFE_INTEGER : undefined;
}

const finiteNonNegativeZero = (n: number): boolean => numberIsFinite(n) && !objectIs(n, -0);

function parsedPath(keyLists: (string[] | undefined)[], positions: number[], top: number): string {
  let path = '$';
  for (let i = 0; i < top; i++) {
    const keys = keyLists[i];
    const at = (positions[i] as number) - 1;
    path += keys === undefined ? `[${at}]` : `.${capText(keys[at] as string, MAX_PATH_KEY_CHARS)}`;
  }
  return capMiddle(path);
}

// A small iterative JSON parser used only when native parsing overflows the stack on deep input.
export function parseIterative(text: string): DecodeResult {
  let i = 0;
  const n = text.length;
  type Container =
    | { kind: 'array'; value: JsonValue[] }
    | { kind: 'object'; value: Record<string, JsonValue>; key: string | undefined };
  const stack: Container[] = [];
  let top = 0;
  let result: JsonValue | undefined;
  let done = false;
  const ws = () => {
    while (i < n) {
      const c = charCodeAt(text, i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (why: string): DecodeResult => ({ ok: false, reason: `malformed JSON (${why} at ${i})` });
  const scalarEnd = /[,\]}\s]/g;
  const place = (v: JsonValue): boolean => {
    const parent = top > 0 ? stack[top - 1] : undefined;
    if (parent === undefined) {
      if (done) return false;
      result = v;
      done = true;
      return true;
    }
    if (parent.kind === 'array') setIndex(parent.value, parent.value.length, v);
    else {
      if (parent.key === undefined) return false;
      // a null-prototype descriptor: `get`/`set` planted on Object.prototype must not be read as part of it
      const descriptor = ObjectCreate(null) as PropertyDescriptor;
      descriptor.value = v;
      descriptor.enumerable = true;
      descriptor.writable = true;
      descriptor.configurable = true;
      ObjectDefineProperty(parent.value, parent.key, descriptor);
      parent.key = undefined;
    }
    return true;
  };
  let expectValue = true;
  while (true) {
    ws();
    if (i >= n) break;
    const c = text[i] as string;
    const current = top > 0 ? stack[top - 1] : undefined;
    if (!expectValue) {
      if (c === ',' && current !== undefined) {
        i++;
        expectValue = true;
        if (current.kind === 'object') {
          ws();
          if (text[i] !== '"') return fail('expected key');
        }
        continue;
      }
      if (c === ']' && current?.kind === 'array') {
        i++;
        top--;
        if (!place(current.value)) return fail('misplaced value');
        continue;
      }
      if (c === '}' && current?.kind === 'object') {
        i++;
        top--;
        if (!place(current.value)) return fail('misplaced value');
        continue;
      }
      return fail('unexpected character');
    }
    if (current?.kind === 'object' && current.key === undefined) {
      if (c === '}' && objectKeys(current.value).length === 0) {
        i++;
        top--;
        if (!place(current.value)) return fail('misplaced value');
        expectValue = false;
        continue;
      }
      if (c !== '"') return fail('expected key');
      const end = scanString(text, i);
      if (end < 0) return fail('bad string');
      current.key = parse(slice(text, i, end)) as string;
      i = end;
      ws();
      if (text[i] !== ':') return fail('expected colon');
      i++;
      continue;
    }
    if (c === '[') {
      i++;
      setIndex(stack, top++, { kind: 'array', value: [] });
      ws();
      if (text[i] === ']') {
        i++;
        const arr = stack[--top] as Container;
        if (!place(arr.value)) return fail('misplaced value');
        expectValue = false;
      }
      continue;
    }
    if (c === '{') {
      i++;
      setIndex(stack, top++, { kind: 'object', value: {}, key: undefined });
      continue;
    }
    if (c === ']' && current?.kind === 'array' && current.value.length === 0) return fail('unexpected ]');
    let end: number;
    if (c === '"') {
      end = scanString(text, i);
      if (end < 0) return fail('bad string');
    } else {
      scalarEnd.lastIndex = i;
      const m = RegExpPrototypeExec(scalarEnd, text);
      end = m === null ? n : m.index;
    }
    let v: JsonValue;
    try {
      v = parse(slice(text, i, end)) as JsonValue;
    } catch {
      return fail('bad scalar');
    }
    i = end;
    if (!place(v)) return fail('misplaced value');
    expectValue = false;
  }
  if (top > 0 || !done) return fail('unexpected end');
  return { ok: true, value: result as JsonValue };
}

function scanString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = charCodeAt(text, i);
    if (c === 92) i += 2;
    else if (c === 34) return i + 1;
    else i++;
  }
  return -1;
}

// Canonical JSON (sorted keys) used to match replayed calls regardless of key order.
export function canonicalJson(value: JsonValue): string {
  return encodeJson(value, true);
}
