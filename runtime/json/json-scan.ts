// A strict, iterative JSON syntax scanner: exact error positions, plus source spans of the shallow values.

export type JsonPath = readonly (string | number)[];

export interface Span {
  start: number;
  end: number;
}

export type ScanResult = { ok: true; spans: Map<string, Span> } | { ok: false; offset: number; message: string };

export interface ScanOptions {
  // spans are recorded for values whose path has at most this many segments
  spanDepth: number;
  // objects at these (recorded) paths may not repeat a key
  uniqueKeys: (path: JsonPath) => boolean;
  // which children of a recorded value are recorded too (default: all, down to spanDepth)
  follow?: (path: JsonPath) => boolean;
}

// Paths become map keys; JSON of the segment array is unambiguous.
export function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}

type Frame = {
  kind: 'object' | 'array';
  path: JsonPath | undefined;
  depth: number;
  index: number;
  key: string | undefined;
  keys: Set<string> | undefined;
  // expecting: value after '[' or ',' (array), key after '{' or ',' (object), ':' after a key, ',' or close after a
  // value
  state: 'first' | 'value' | 'key' | 'colon' | 'after';
  start: number;
};

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const PLAIN_CHARS = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

function describeChar(text: string, at: number): string {
  if (at >= text.length) return 'end of file';
  const code = text.codePointAt(at) as number;
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return `'${String.fromCodePoint(code)}'`;
}

// Scans a whole document; never recurses, so any nesting depth is fine.
export function scanJson(text: string, options: ScanOptions): ScanResult {
  const spans = new Map<string, Span>();
  const stack: Frame[] = [];
  let i = 0;
  const n = text.length;
  let rootDone = false;

  const skipWs = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
  };
  const fail = (offset: number, message: string): ScanResult => ({ ok: false, offset, message });

  // scans a string starting at the quote; returns the decoded text or an error
  const scanString = (decode: boolean): { ok: true; value: string } | { ok: false; result: ScanResult } => {
    const open = i;
    i++;
    let out = '';
    for (;;) {
      PLAIN_CHARS.lastIndex = i;
      PLAIN_CHARS.exec(text);
      if (decode) out += text.slice(i, PLAIN_CHARS.lastIndex);
      i = PLAIN_CHARS.lastIndex;
      if (i >= n) return { ok: false, result: fail(open, 'unterminated string (missing closing ")') };
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return { ok: true, value: out };
      }
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!HEX4.test(hex)) return { ok: false, result: fail(i, 'invalid \\u escape (expected 4 hex digits)') };
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          out += (
            { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>
          )[e];
          i += 2;
        } else {
          return {
            ok: false,
            result: fail(i, `invalid escape ${e === undefined ? 'at end of file' : `'\\${e}'`} in string`),
          };
        }
        continue;
      }
      return { ok: false, result: fail(i, `${describeChar(text, i)} is not allowed inside a string (escape it)`) };
    }
  };

  const childPath = (parent: Frame | undefined): JsonPath | undefined => {
    if (parent === undefined) return [];
    if (parent.path === undefined || parent.depth >= options.spanDepth) return undefined;
    const path = [...parent.path, parent.kind === 'array' ? parent.index : (parent.key as string)];
    return options.follow === undefined || options.follow(path) ? path : undefined;
  };
  const depthOf = (parent: Frame | undefined): number => (parent === undefined ? 0 : parent.depth + 1);
  const record = (path: JsonPath | undefined, start: number): void => {
    if (path !== undefined) spans.set(pathKey(path), { start, end: i });
  };
  const valueDone = (): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) rootDone = true;
    else top.state = 'after';
  };

  // parses one value at i (scalars fully, containers by pushing a frame)
  const startValue = (): ScanResult | undefined => {
    const parent = stack[stack.length - 1];
    const path = childPath(parent);
    const start = i;
    const c = text[i];
    if (c === '{' || c === '[') {
      const depth = depthOf(parent);
      stack.push({
        kind: c === '{' ? 'object' : 'array',
        path,
        depth,
        index: 0,
        key: undefined,
        keys: c === '{' && path !== undefined && options.uniqueKeys(path) ? new Set() : undefined,
        state: 'first',
        start,
      });
      i++;
      return undefined;
    }
    if (c === '"') {
      const s = scanString(false);
      if (!s.ok) return s.result;
    } else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (text.startsWith(word, i)) i += word.length;
      else
        return fail(
          i,
          `unexpected ${describeChar(text, i)} (expected a value: only true, false and null are bare words in JSON)`,
        );
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) return fail(i, 'invalid number');
      i = NUMBER.lastIndex;
      const next = text[i];
      if (next !== undefined && /[0-9.eE+\-a-zA-Z_]/.test(next))
        return fail(start, `invalid number '${text.slice(start, i + 1)}'`);
    } else if (c === undefined) {
      return fail(i, 'unexpected end of file (expected a value)');
    } else {
      return fail(i, `unexpected ${describeChar(text, i)} (expected a value)`);
    }
    record(path, start);
    valueDone();
    return undefined;
  };

  skipWs();
  if (i >= n) return fail(i, 'the file is empty');
  const first = startValue();
  if (first !== undefined) return first;
  while (stack.length > 0) {
    skipWs();
    const top = stack[stack.length - 1] as Frame;
    const c = text[i];
    const close = top.kind === 'object' ? '}' : ']';
    if (top.state === 'after' || (top.state === 'first' && c === close)) {
      if (c === close) {
        i++;
        stack.pop();
        record(top.path, top.start);
        valueDone();
        continue;
      }
      if (top.state === 'first') {
        // fall through to the key/value branch below
      } else if (c === ',') {
        const commaAt = i;
        i++;
        if (top.kind === 'array') {
          top.index++;
          top.state = 'value';
        } else top.state = 'key';
        skipWs();
        if (text[i] === close) return fail(commaAt, `trailing comma before '${close}'`);
        continue;
      } else {
        return fail(i, `unexpected ${describeChar(text, i)} (expected ',' or '${close}')`);
      }
    }
    if (top.kind === 'array') {
      const bad = startValue();
      if (bad !== undefined) return bad;
      continue;
    }
    if (top.state === 'colon') {
      if (c !== ':') return fail(i, `unexpected ${describeChar(text, i)} (expected ':' after the key)`);
      i++;
      skipWs();
      top.state = 'value';
      const bad = startValue();
      if (bad !== undefined) return bad;
      continue;
    }
    if (c !== '"') {
      return fail(
        i,
        `unexpected ${describeChar(text, i)} (expected a "quoted" key${top.state === 'first' ? " or '}'" : ''})`,
      );
    }
    const keyAt = i;
    const key = scanString(true);
    if (!key.ok) return key.result;
    if (top.keys !== undefined) {
      if (top.keys.has(key.value)) return fail(keyAt, `duplicate key ${JSON.stringify(key.value)}`);
      top.keys.add(key.value);
    }
    top.key = key.value;
    top.state = 'colon';
  }
  skipWs();
  if (i < n) return fail(i, `unexpected ${describeChar(text, i)} after the end of the JSON document`);
  return rootDone ? { ok: true, spans } : fail(i, 'unexpected end of file');
}

// 1-based line and column (in UTF-16 code units) of an offset.
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

// Offset of the first bracket nested deeper than `maxDepth` (strings skipped), or -1: a cheap pass before a native
// parser, which recurses; never recurses itself.
export function tooDeepAt(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > maxDepth) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}
