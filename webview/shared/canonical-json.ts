import type { JsonValue } from '../../runtime/protocol/json-value.js';
import { jsonText } from './json-text.js';

// JSON with object keys sorted, so equal values compare equal whatever their key order (as replay matching does).
export function canonicalJson(value: JsonValue | undefined): string {
  return value === undefined ? 'undefined' : jsonText(value, { sortKeys: true });
}

export function jsonEquals(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  return canonicalJson(a) === canonicalJson(b);
}
