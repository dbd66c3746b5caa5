import type { JsonValue } from '../protocol/json-value.js';

// Intrinsics captured at load: the child bundles this module next to model code that may patch globals.
const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const objectKeys = Object.keys;
const getOwnPropertyNames = Object.getOwnPropertyNames;
const getOwnPropertySymbols = Object.getOwnPropertySymbols;
const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
const numberIsFinite = Number.isFinite;
const objectIs = Object.is;
const ObjectProto = Object.prototype;
const ArrayProto = Array.prototype;
const stringify = JSON.stringify;
const parse = JSON.parse;
const RangeErrorCtor = RangeError;
const StringCtor = String;

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
  const stack: Item[] = [{ value: root, depth: 1, parent: null, key: '$' }];
  const onPath = new Set<object>();
  const exits: { obj: object; at: number }[] = [];
  let maxDepth = 0;
  while (stack.length > 0) {
    const item = stack.pop() as Item;
    while (exits.length > 0 && (exits[exits.length - 1] as { at: number }).at >= item.depth) {
      onPath.delete((exits.pop() as { obj: object }).obj);
    }
    const { value, depth } = item;
    const path = (): string => pathOf(item);
    if (depth > maxDepth) maxDepth = depth;
    if (value === null || typeof value === 'boolean' || typeof value === 'string') continue;
    if (typeof value === 'number') {
      if (!numberIsFinite(value) || objectIs(value, -0)) return { ok: false, reason: `${path()} is ${describe(value)}` };
      continue;
    }
    if (typeof value !== 'object') return { ok: false, reason: `${path()} is ${describe(value)}` };
    if (onPath.has(value)) return { ok: false, reason: `${path()} is a cycle` };
    if (isArray(value)) {
      const names = getOwnPropertyNames(value);
      if (names.length !== value.length + 1) return { ok: false, reason: `${path()} is a sparse or decorated array` };
      onPath.add(value);
      exits.push({ obj: value, at: depth });
      for (let i = value.length - 1; i >= 0; i--) {
        const d = getOwnPropertyDescriptor(value, i);
        if (d === undefined || !('value' in d)) return { ok: false, reason: `${path()}[${i}] is a hole or accessor` };
        stack.push({ value: d.value, depth: depth + 1, parent: item, key: i });
      }
      continue;
    }
    if (!isPlainObject(value)) return { ok: false, reason: `${path()} is ${describe(value)}` };
    if (getOwnPropertySymbols(value).length > 0) return { ok: false, reason: `${path()} has symbol keys` };
    const names = getOwnPropertyNames(value);
    if (names.length !== objectKeys(value).length) return { ok: false, reason: `${path()} has non-enumerable keys` };
    onPath.add(value);
    exits.push({ obj: value, at: depth });
    for (let i = names.length - 1; i >= 0; i--) {
      const key = names[i] as string;
      const d = getOwnPropertyDescriptor(value, key);
      if (d === undefined || !('value' in d)) return { ok: false, reason: `${path()}.${key} is an accessor` };
      stack.push({ value: d.value, depth: depth + 1, parent: item, key });
    }
  }
  return { ok: true, depth: maxDepth };
}

function pathOf(item: { parent: unknown; key: string | number }): string {
  const parts: string[] = [];
  let at: { parent: unknown; key: string | number } | null = item;
  while (at !== null) {
    parts.push(typeof at.key === 'number' ? `[${at.key}]` : at.parent === null ? at.key : `.${at.key}`);
    at = at.parent as { parent: unknown; key: string | number } | null;
  }
  return parts.reverse().join('');
}

// Serialises an already-checked value; iterative past the native recursion limit.
export function encodeChecked(value: JsonValue, depth: number): string {
  // native JSON.stringify honours an inherited toJSON (a polluted prototype): the checked value would not be what is sent
  const inheritedToJson = 'toJSON' in ObjectProto || 'toJSON' in ArrayProto;
  if (depth < NATIVE_DEPTH_LIMIT && !inheritedToJson) {
    try {
      return stringify(value);
    } catch (error) {
      if (!(error instanceof RangeErrorCtor)) throw error;
    }
  }
  return encodeIterative(value);
}

function encodeIterative(root: JsonValue): string {
  const out: string[] = [];
  type Frame = { kind: 'value'; value: JsonValue } | { kind: 'text'; text: string };
  const stack: Frame[] = [{ kind: 'value', value: root }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const value = frame.value;
    if (value === null || typeof value !== 'object') {
      out.push(stringify(value));
    } else if (isArray(value)) {
      out.push('[');
      stack.push({ kind: 'text', text: ']' });
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: value[i] as JsonValue });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
    } else {
      out.push('{');
      stack.push({ kind: 'text', text: '}' });
      const keys = objectKeys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ kind: 'value', value: value[key] as JsonValue });
        stack.push({ kind: 'text', text: (i > 0 ? ',' : '') + stringify(key) + ':' });
      }
    }
  }
  return out.join('');
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
    if (!(error instanceof RangeErrorCtor)) return { ok: false, reason: 'malformed JSON' };
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
  let result: JsonValue | undefined;
  let done = false;
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const fail = (why: string): DecodeResult => ({ ok: false, reason: `malformed JSON (${why} at ${i})` });
  const scalarEnd = /[,\]}\s]/g;
  const place = (v: JsonValue): boolean => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      if (done) return false;
      result = v;
      done = true;
      return true;
    }
    if (top.kind === 'array') top.value.push(v);
    else {
      if (top.key === undefined) return false;
      Object.defineProperty(top.value, top.key, { value: v, enumerable: true, writable: true, configurable: true });
      top.key = undefined;
    }
    return true;
  };
  let expectValue = true;
  while (true) {
    ws();
    if (i >= n) break;
    const c = text[i] as string;
    const top = stack[stack.length - 1];
    if (!expectValue) {
      if (c === ',' && top !== undefined) {
        i++;
        expectValue = true;
        if (top.kind === 'object') {
          ws();
          if (text[i] !== '"') return fail('expected key');
        }
        continue;
      }
      if (c === ']' && top?.kind === 'array') {
        i++;
        stack.pop();
        if (!place(top.value)) return fail('misplaced value');
        continue;
      }
      if (c === '}' && top?.kind === 'object') {
        i++;
        stack.pop();
        if (!place(top.value)) return fail('misplaced value');
        continue;
      }
      return fail('unexpected character');
    }
    if (top?.kind === 'object' && top.key === undefined) {
      if (c === '}' && objectKeys(top.value).length === 0) {
        i++;
        stack.pop();
        if (!place(top.value)) return fail('misplaced value');
        expectValue = false;
        continue;
      }
      if (c !== '"') return fail('expected key');
      const end = scanString(text, i);
      if (end < 0) return fail('bad string');
      top.key = parse(text.slice(i, end)) as string;
      i = end;
      ws();
      if (text[i] !== ':') return fail('expected colon');
      i++;
      continue;
    }
    if (c === '[') {
      i++;
      stack.push({ kind: 'array', value: [] });
      ws();
      if (text[i] === ']') {
        i++;
        const arr = stack.pop() as Container;
        if (!place(arr.value)) return fail('misplaced value');
        expectValue = false;
      }
      continue;
    }
    if (c === '{') {
      i++;
      stack.push({ kind: 'object', value: {}, key: undefined });
      continue;
    }
    if (c === ']' && top?.kind === 'array' && top.value.length === 0) return fail('unexpected ]');
    let end: number;
    if (c === '"') {
      end = scanString(text, i);
      if (end < 0) return fail('bad string');
    } else {
      scalarEnd.lastIndex = i;
      const m = scalarEnd.exec(text);
      end = m === null ? n : m.index;
    }
    let v: JsonValue;
    try {
      v = parse(text.slice(i, end)) as JsonValue;
    } catch {
      return fail('bad scalar');
    }
    i = end;
    if (!place(v)) return fail('misplaced value');
    expectValue = false;
  }
  if (stack.length > 0 || !done) return fail('unexpected end');
  return { ok: true, value: result as JsonValue };
}

function scanString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92) i += 2;
    else if (c === 34) return i + 1;
    else i++;
  }
  return -1;
}

// Canonical JSON (sorted keys) used to match replayed calls regardless of key order.
export function canonicalJson(value: JsonValue): string {
  const out: string[] = [];
  type Frame = { kind: 'value'; value: JsonValue } | { kind: 'text'; text: string };
  const stack: Frame[] = [{ kind: 'value', value }];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const v = frame.value;
    if (v === null || typeof v !== 'object') out.push(stringify(v));
    else if (isArray(v)) {
      out.push('[');
      stack.push({ kind: 'text', text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: v[i] as JsonValue });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
    } else {
      out.push('{');
      stack.push({ kind: 'text', text: '}' });
      const keys = objectKeys(v).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ kind: 'value', value: v[key] as JsonValue });
        stack.push({ kind: 'text', text: (i > 0 ? ',' : '') + stringify(key) + ':' });
      }
    }
  }
  return out.join('');
}
