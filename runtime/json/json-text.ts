// The host's one JSON writer for program data (CLI output, notebook files and outputs, cassettes, the webviews):
// iterative, so any depth the runtime accepts is written, and streamable, so a 64 MiB result is never held twice.
// Browser-safe (no imports): the renderer and inspector use it too. The Node child keeps its own hardened encoder
// in lossless.ts (captured intrinsics, since it runs after model code may patch prototypes).

export type JsonPathSegment = string | number;

export interface JsonTextOptions {
  // spaces per level, like JSON.stringify's third argument (capped at 10 the same way); 0 writes compact JSON
  indent?: number;
  // levels indented before the rest of a value is written compactly (indentation would make deep values quadratic)
  prettyDepth?: number;
  // indentation level of the value's own line (for values embedded in a larger document)
  baseDepth?: number;
  // sorted object keys at every level (canonical form for comparisons)
  sortKeys?: boolean;
  // key order for the object at `path`; called for paths of at most `hookDepth` segments
  orderKeys?: (path: readonly JsonPathSegment[], keys: string[]) => string[];
  // verbatim text to write instead of the value at `path` (never called for the root)
  raw?: (path: readonly JsonPathSegment[], value: unknown) => string | undefined;
  hookDepth?: number;
}

// Below this nesting level indented output switches to compact.
export const PRETTY_DEPTH_LIMIT = 48;

// Pieces are gathered into chunks of about this many UTF-16 units before reaching a streaming sink.
export const JSON_CHUNK_CHARS = 64 * 1024;

type Frame = {
  // array items, or the record whose `keys` are written
  items: readonly unknown[] | undefined;
  record: Record<string, unknown> | undefined;
  keys: string[] | undefined;
  next: number;
  size: number;
  depth: number;
  compact: boolean;
  path: JsonPathSegment[] | undefined;
};

const stringify = JSON.stringify;

// Writes `root` as JSON text to `sink` in pieces; object properties that are undefined (or functions) are skipped and
// array items that are become null, as JSON.stringify does; toJSON is never consulted.
export function writeJsonText(root: unknown, sink: (piece: string) => void, options: JsonTextOptions = {}): void {
  const step = ' '.repeat(Math.max(0, Math.min(10, Math.trunc(options.indent ?? 0))));
  const prettyDepth = options.prettyDepth ?? PRETTY_DEPTH_LIMIT;
  const hooked = options.orderKeys !== undefined || options.raw !== undefined;
  const hookDepth = options.hookDepth ?? 0;
  const indents: string[] = [''];
  const indent = (depth: number): string => {
    while (indents.length <= depth) indents.push(`${indents[indents.length - 1] as string}${step}`);
    return indents[depth] as string;
  };
  const stack: Frame[] = [];
  // opens `value` (at indentation `depth`): scalars are written at once, containers become a frame
  const open = (value: unknown, depth: number, path: JsonPathSegment[] | undefined): void => {
    if (path !== undefined && path.length > 0 && options.raw !== undefined) {
      const raw = options.raw(path, value);
      if (raw !== undefined) return sink(raw);
    }
    if (typeof value === 'string' && value.length > JSON_CHUNK_CHARS) return writeLongString(value, sink);
    if (value === null || typeof value !== 'object') {
      const text = stringify(value) as string | undefined;
      // only array items (and a root) get here as undefined, a function or a symbol: JSON.stringify writes null there
      return sink(text ?? 'null');
    }
    const compact =
      step.length === 0 || depth >= prettyDepth || (stack.length > 0 && (stack[stack.length - 1] as Frame).compact);
    if (Array.isArray(value)) {
      if (value.length === 0) return sink('[]');
      sink('[');
      stack.push({
        items: value,
        record: undefined,
        keys: undefined,
        next: 0,
        size: value.length,
        depth,
        compact,
        path,
      });
      return;
    }
    const record = value as Record<string, unknown>;
    let keys = Object.keys(record).filter((k) => isWritten(record[k]));
    if (options.sortKeys === true) keys.sort();
    if (path !== undefined && options.orderKeys !== undefined) keys = options.orderKeys(path, keys);
    if (keys.length === 0) return sink('{}');
    sink('{');
    stack.push({ items: undefined, record, keys, next: 0, size: keys.length, depth, compact, path });
  };
  open(root, options.baseDepth ?? 0, hooked ? [] : undefined);
  while (stack.length > 0) {
    const top = stack[stack.length - 1] as Frame;
    if (top.next >= top.size) {
      stack.pop();
      const close = top.items === undefined ? '}' : ']';
      sink(top.compact ? close : `\n${indent(top.depth)}${close}`);
      continue;
    }
    const i = top.next++;
    const separator = i > 0 ? ',' : '';
    const lead = top.compact ? separator : `${separator}\n${indent(top.depth + 1)}`;
    let segment: JsonPathSegment;
    let child: unknown;
    if (top.items !== undefined) {
      segment = i;
      child = top.items[i];
      if (lead.length > 0) sink(lead);
    } else {
      segment = (top.keys as string[])[i] as string;
      child = (top.record as Record<string, unknown>)[segment];
      sink(`${lead}${stringify(segment)}${top.compact ? ':' : ': '}`);
    }
    const path = top.path !== undefined && top.path.length < hookDepth ? [...top.path, segment] : undefined;
    open(child, top.depth + 1, path);
  }
}

// A long string is escaped a slice at a time: streaming a 60 MiB value never makes a second 60 MiB string.
function writeLongString(text: string, sink: (piece: string) => void): void {
  sink('"');
  forEachSlice(text, JSON_CHUNK_CHARS, (part) => sink(stringify(part).slice(1, -1)));
  sink('"');
}

// Calls `each` with consecutive slices of at most `size` units that never split a surrogate pair (a split pair would
// be escaped, or encoded, as two lone halves).
export function forEachSlice(text: string, size: number, each: (slice: string) => void): void {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - at > 1 && last >= 0xd800 && last <= 0xdbff) end--;
    each(text.slice(at, end));
    at = end;
  }
}

// Whether an object property appears in JSON.stringify's output.
function isWritten(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

// The whole JSON text as one string.
export function jsonText(value: unknown, options: JsonTextOptions = {}): string {
  const pieces: string[] = [];
  writeJsonText(value, (piece) => pieces.push(piece), options);
  return pieces.join('');
}

// A sink that hands `write` chunks of about JSON_CHUNK_CHARS (big pieces pass straight through); call flush at the end.
export function chunkedSink(
  write: (chunk: string) => void,
  chunkChars = JSON_CHUNK_CHARS,
): { push(piece: string): void; flush(): void } {
  let pending: string[] = [];
  let size = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const chunk = pending.length === 1 ? (pending[0] as string) : pending.join('');
    pending = [];
    size = 0;
    write(chunk);
  };
  return {
    push(piece) {
      if (piece.length >= chunkChars) {
        flush();
        // written a slice at a time, so the writer never encodes one huge string at once
        forEachSlice(piece, chunkChars, write);
        return;
      }
      pending.push(piece);
      size += piece.length;
      if (size >= chunkChars) flush();
    },
    flush,
  };
}
