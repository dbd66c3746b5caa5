import { encodeChecked } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { JsonPath } from './json-scan.js';

export interface PrettyHooks {
  // key order for the object at `path` (only called for paths up to `hookDepth` segments)
  orderKeys?: (path: JsonPath, keys: string[]) => string[];
  // verbatim source text to emit instead of the value at `path`, if any
  raw?: (path: JsonPath, value: JsonValue) => string | undefined;
  hookDepth?: number;
  // indentation level of the value's own line (for values embedded in a larger document)
  baseDepth?: number;
}

// Below this nesting level values are written compactly: indentation would make deep values quadratic in size.
export const PRETTY_DEPTH_LIMIT = 48;

type Frame = { kind: 'text'; text: string } | { kind: 'value'; value: JsonValue; depth: number; path: JsonPath | undefined };

const stringify = JSON.stringify;

// The same text as JSON.stringify(value, null, 2) down to PRETTY_DEPTH_LIMIT, compact below it; never recurses.
export function prettyJson(root: JsonValue, hooks: PrettyHooks = {}): string {
  const hookDepth = hooks.hookDepth ?? 0;
  const out: string[] = [];
  const stack: Frame[] = [{ kind: 'value', value: root, depth: hooks.baseDepth ?? 0, path: [] }];
  const indents: string[] = [''];
  const indent = (depth: number): string => {
    while (indents.length <= depth) indents.push(`${indents[indents.length - 1] as string}  `);
    return indents[depth] as string;
  };
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const { value, depth, path } = frame;
    if (path !== undefined && path.length > 0 && hooks.raw !== undefined) {
      const raw = hooks.raw(path, value);
      if (raw !== undefined) {
        out.push(raw);
        continue;
      }
    }
    if (value === null || typeof value !== 'object') {
      out.push(stringify(value));
      continue;
    }
    if (depth >= PRETTY_DEPTH_LIMIT) {
      out.push(encodeChecked(value, 0));
      continue;
    }
    const childPath = (segment: string | number): JsonPath | undefined => (path !== undefined && path.length < hookDepth ? [...path, segment] : undefined);
    const inner = indent(depth + 1);
    if (Array.isArray(value)) {
      if (value.length === 0) {
        out.push('[]');
        continue;
      }
      out.push('[\n');
      stack.push({ kind: 'text', text: `\n${indent(depth)}]` });
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: value[i] as JsonValue, depth: depth + 1, path: childPath(i) });
        stack.push({ kind: 'text', text: i > 0 ? `,\n${inner}` : inner });
      }
      continue;
    }
    let keys = Object.keys(value).filter((k) => value[k] !== undefined);
    if (path !== undefined && hooks.orderKeys !== undefined) keys = hooks.orderKeys(path, keys);
    if (keys.length === 0) {
      out.push('{}');
      continue;
    }
    out.push('{\n');
    stack.push({ kind: 'text', text: `\n${indent(depth)}}` });
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push({ kind: 'value', value: value[key] as JsonValue, depth: depth + 1, path: childPath(key) });
      stack.push({ kind: 'text', text: `${i > 0 ? `,\n${inner}` : inner}${stringify(key)}: ` });
    }
  }
  return out.join('');
}

// Known keys first in the given order, then the rest in their existing order.
export function orderedKeys(keys: readonly string[], known: readonly string[]): string[] {
  const present = new Set(keys);
  const head = known.filter((k) => present.has(k));
  const knownSet = new Set(known);
  return [...head, ...keys.filter((k) => !knownSet.has(k))];
}
