import * as z from 'zod/mini';
import type { JsonValue } from '../../runtime/protocol/json-value.js';

export type JsonCheck = { ok: true } | { ok: false; path: string; reason: string };

// Iterative, so a 5 000-deep value neither overflows the stack nor costs more than one pass (zod's lazy union does both).
export function checkJsonValue(value: unknown): JsonCheck {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string };
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return { ok: false, path, reason: `${String(current)} is not a JSON number` };
      continue;
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i -= 1) stack.push({ value: current[i], path: `${path}[${i}]` });
      continue;
    }
    if (typeof current === 'object' && isPlainObject(current)) {
      for (const key of Object.keys(current)) stack.push({ value: (current as Record<string, unknown>)[key], path: `${path}.${key}` });
      continue;
    }
    return { ok: false, path, reason: `a ${typeof current} is not a JSON value` };
  }
  return { ok: true };
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Shape-only JSON check for data that came out of JSON.parse; keeps the same reference (no copy of large values).
export const FastJsonValueSchema = z.custom<JsonValue>((value) => checkJsonValue(value).ok, {
  error: (issue) => {
    const check = checkJsonValue(issue.input);
    return check.ok ? 'not a JSON value' : `not a JSON value at ${check.path || '(root)'}: ${check.reason}`;
  },
});
