import * as z from 'zod/mini';

// Browser-safe (no Node imports): the webview validates results with the same schemas as the runtime.

// Lossless JSON: what crosses every boundary of a model program (arguments, replies, return values).
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonCheck = { ok: true } | { ok: false; path: string; reason: string };

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Checks, without recursion (a 10 000-deep value neither overflows the stack nor costs more than one pass), that a
// value is lossless JSON: finite numbers and no -0, dense arrays, plain objects, no cycles. (runtime/json/lossless.ts
// applies the same rules, hardened for a realm whose prototypes a program may have patched.)
export function checkJsonValue(value: unknown): JsonCheck {
  // an `exit` entry leaves the ancestor path, so a value shared by siblings is fine and only a cycle is refused
  type Entry = { value: unknown; path: string } | { exit: object };
  const stack: Entry[] = [{ value, path: '' }];
  const ancestors = new Set<object>();
  while (stack.length > 0) {
    const entry = stack.pop() as Entry;
    if ('exit' in entry) {
      ancestors.delete(entry.exit);
      continue;
    }
    const { value: current, path } = entry;
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return { ok: false, path, reason: `${String(current)} is not a JSON number` };
      if (Object.is(current, -0)) return { ok: false, path, reason: '-0 is not a lossless JSON number' };
      continue;
    }
    if (typeof current !== 'object') return { ok: false, path, reason: `a ${typeof current} is not a JSON value` };
    if (ancestors.has(current)) return { ok: false, path, reason: 'a cycle is not a JSON value' };
    if (Array.isArray(current)) {
      ancestors.add(current);
      stack.push({ exit: current });
      for (let i = current.length - 1; i >= 0; i -= 1) {
        if (!(i in current)) return { ok: false, path: `${path}[${i}]`, reason: 'a hole is not a JSON value' };
        stack.push({ value: current[i], path: `${path}[${i}]` });
      }
      continue;
    }
    if (!isPlainObject(current)) return { ok: false, path, reason: 'an object that is not plain is not a JSON value' };
    ancestors.add(current);
    stack.push({ exit: current });
    for (const key of Object.keys(current))
      stack.push({ value: (current as Record<string, unknown>)[key], path: `${path}.${key}` });
  }
  return { ok: true };
}

// Keeps the same reference (no copy of large values); the message names the first offending path.
export const JsonValueSchema = z.custom<JsonValue>((value) => checkJsonValue(value).ok, {
  error: (issue) => {
    const check = checkJsonValue(issue.input);
    return check.ok ? 'not a JSON value' : `not a JSON value at ${check.path || '(root)'}: ${check.reason}`;
  },
});
