import type { JsonValue } from '../protocol/json-value.js';

import {
  ArrayIsArray as isArray,
  ArrayPrototype as ArrayProto,
  ArrayPrototypeJoin as join,
  ArrayPrototypeSort as sort,
  JSONParse as parse,
  JSONStringify as stringify,
  NumberIsFinite as numberIsFinite,
  ObjectCreate,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor as getOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames as getOwnPropertyNames,
  ObjectGetOwnPropertySymbols as getOwnPropertySymbols,
  ObjectGetPrototypeOf as getPrototypeOf,
  ObjectIs as objectIs,
  ObjectKeys as objectKeys,
  ObjectPrototype as ObjectProto,
  ObjectPrototypeHasOwnProperty as hasOwn,
  FunctionPrototypeHasInstance,
  RangeErrorCtor,
  RegExpPrototypeExec,
  setIndex,
  SetCtor,
  SetPrototypeAdd,
  SetPrototypeDelete,
  SetPrototypeHas,
  StringCtor,
  StringPrototypeCharCodeAt as charCodeAt,
  StringPrototypeSlice as slice,
} from './primordials.js';

// The Node child runs these after model code that may patch Array/String/Set prototypes: captured intrinsics only,
// and stacks grown by index with their own counters (no push/pop/iterators).
export type LosslessCheck = { ok: true; depth: number } | { ok: false; reason: string };

// Native JSON recurses; beyond this depth we switch to the iterative encoder/decoder.
const NATIVE_DEPTH_LIMIT = 2_000;

function isPlainObject(value: object): boolean {
  const proto: unknown = getPrototypeOf(value);
  if (proto === null || proto === ObjectProto) return true;
  // foreign-realm plain objects: their prototype is another realm's Object.prototype
  return proto !== null && typeof proto === 'object' && getPrototypeOf(proto) === null && 'hasOwnProperty' in (proto as object);
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'number') return StringCtor(value === 0 ? '-0' : value);
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  return 'a non-plain object';
}

// Checks, without recursion, that a value is lossless JSON: finite numbers, no -0, dense arrays, plain objects, no cycles.
export function checkLossless(root: unknown): LosslessCheck {
  type Item = { value: unknown; depth: number; parent: Item | null; key: string | number };
  type Exit = { obj: object; at: number };
  const stack: Item[] = [{ value: root, depth: 1, parent: null, key: '$' }];
  let top = 1;
  const onPath = new SetCtor<object>();
  const exits: Exit[] = [];
  let exitTop = 0;
  let maxDepth = 0;
  while (top > 0) {
    const item = stack[--top] as Item;
    while (exitTop > 0 && (exits[exitTop - 1] as Exit).at >= item.depth) {
      SetPrototypeDelete(onPath, (exits[--exitTop] as Exit).obj);
    }
    const value = item.value;
    const depth = item.depth;
    if (depth > maxDepth) maxDepth = depth;
    if (value === null || typeof value === 'boolean' || typeof value === 'string') continue;
    if (typeof value === 'number') {
      if (!numberIsFinite(value) || objectIs(value, -0)) return { ok: false, reason: `${pathOf(item)} is ${describe(value)}` };
      continue;
    }
    if (typeof value !== 'object') return { ok: false, reason: `${pathOf(item)} is ${describe(value)}` };
    if (SetPrototypeHas(onPath, value)) return { ok: false, reason: `${pathOf(item)} is a cycle` };
    if (isArray(value)) {
      const names = getOwnPropertyNames(value);
      const length = (value as unknown[]).length;
      if (names.length !== length + 1) return { ok: false, reason: `${pathOf(item)} is a sparse or decorated array` };
      SetPrototypeAdd(onPath, value);
      setIndex(exits, exitTop++, { obj: value, at: depth });
      for (let i = length - 1; i >= 0; i--) {
        const d = getOwnPropertyDescriptor(value, i);
        // hasOwn, not `in`: a `value` planted on Object.prototype must not pass an accessor off as data
        if (d === undefined || !hasOwn(d, 'value')) return { ok: false, reason: `${pathOf(item)}[${i}] is a hole or accessor` };
        setIndex(stack, top++, { value: d.value, depth: depth + 1, parent: item, key: i });
      }
      continue;
    }
    if (!isPlainObject(value)) return { ok: false, reason: `${pathOf(item)} is ${describe(value)}` };
    if (getOwnPropertySymbols(value).length > 0) return { ok: false, reason: `${pathOf(item)} has symbol keys` };
    const names = getOwnPropertyNames(value);
    if (names.length !== objectKeys(value).length) return { ok: false, reason: `${pathOf(item)} has non-enumerable keys` };
    SetPrototypeAdd(onPath, value);
    setIndex(exits, exitTop++, { obj: value, at: depth });
    for (let i = names.length - 1; i >= 0; i--) {
      const key = names[i] as string;
      const d = getOwnPropertyDescriptor(value, key);
      if (d === undefined || !hasOwn(d, 'value')) return { ok: false, reason: `${pathOf(item)}.${key} is an accessor` };
      setIndex(stack, top++, { value: d.value, depth: depth + 1, parent: item, key });
    }
  }
  return { ok: true, depth: maxDepth };
}

function pathOf(item: { parent: unknown; key: string | number }): string {
  let path = '';
  let at: { parent: unknown; key: string | number } | null = item;
  while (at !== null) {
    path = (typeof at.key === 'number' ? `[${at.key}]` : at.parent === null ? at.key : `.${at.key}`) + path;
    at = at.parent as { parent: unknown; key: string | number } | null;
  }
  return path;
}

// Serialises an already-checked value; iterative past the native recursion limit.
export function encodeChecked(value: JsonValue, depth: number): string {
  // native JSON.stringify honours an inherited toJSON (a polluted prototype): the checked value would not be what is sent
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

// Iterative JSON text of a checked value (never consults toJSON); `sorted` gives canonical key order.
function encodeJson(root: JsonValue, sorted: boolean): string {
  const out: string[] = [];
  let outTop = 0;
  // a string is literal output text, a box a value still to encode
  const stack: (string | { value: JsonValue })[] = [{ value: root }];
  let top = 1;
  while (top > 0) {
    const frame = stack[--top] as string | { value: JsonValue };
    if (typeof frame === 'string') {
      setIndex(out, outTop++, frame);
      continue;
    }
    const value = frame.value;
    if (value === null || typeof value !== 'object') {
      setIndex(out, outTop++, stringify(value) as string);
    } else if (isArray(value)) {
      setIndex(out, outTop++, '[');
      setIndex(stack, top++, ']');
      for (let i = value.length - 1; i >= 0; i--) {
        setIndex(stack, top++, { value: value[i] as JsonValue });
        if (i > 0) setIndex(stack, top++, ',');
      }
    } else {
      setIndex(out, outTop++, '{');
      setIndex(stack, top++, '}');
      const keys = objectKeys(value);
      if (sorted) sort(keys);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        setIndex(stack, top++, { value: value[key] as JsonValue });
        setIndex(stack, top++, (i > 0 ? ',' : '') + stringify(key) + ':');
      }
    }
  }
  return join(out, '');
}

export type EncodeResult = { ok: true; text: string } | { ok: false; reason: string };

// Validates and serialises in one call.
export function encodeLossless(value: unknown): EncodeResult {
  const check = checkLossless(value);
  if (!check.ok) return check;
  return { ok: true, text: encodeChecked(value as JsonValue, check.depth) };
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
  const check = checkLossless(value);
  return check.ok ? { ok: true, value: value as JsonValue } : check;
}

// A small iterative JSON parser used only when native parsing overflows the stack on deep input.
export function parseIterative(text: string): DecodeResult {
  let i = 0;
  const n = text.length;
  type Container = { kind: 'array'; value: JsonValue[] } | { kind: 'object'; value: Record<string, JsonValue>; key: string | undefined };
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
