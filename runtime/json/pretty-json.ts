import { jsonText, PRETTY_DEPTH_LIMIT } from './json-text.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { JsonPath } from './json-scan.js';

export { PRETTY_DEPTH_LIMIT };

export interface PrettyHooks {
  // key order for the object at `path` (only called for paths up to `hookDepth` segments)
  orderKeys?: (path: JsonPath, keys: string[]) => string[];
  // verbatim source text to emit instead of the value at `path`, if any
  raw?: (path: JsonPath, value: JsonValue) => string | undefined;
  hookDepth?: number;
  // indentation level of the value's own line (for values embedded in a larger document)
  baseDepth?: number;
}

// The same text as JSON.stringify(value, null, 2) down to PRETTY_DEPTH_LIMIT, compact below it; never recurses.
export function prettyJson(root: JsonValue, hooks: PrettyHooks = {}): string {
  const { orderKeys, raw } = hooks;
  return jsonText(root, {
    indent: 2,
    hookDepth: hooks.hookDepth ?? 0,
    baseDepth: hooks.baseDepth ?? 0,
    ...(orderKeys === undefined ? {} : { orderKeys }),
    ...(raw === undefined ? {} : { raw: (path, value) => raw(path, value as JsonValue) }),
  });
}

// Known keys first in the given order, then the rest in their existing order.
export function orderedKeys(keys: readonly string[], known: readonly string[]): string[] {
  const present = new Set(keys);
  const head = known.filter((k) => present.has(k));
  const knownSet = new Set(known);
  return [...head, ...keys.filter((k) => !knownSet.has(k))];
}
