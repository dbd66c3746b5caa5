import type { JsonValue } from '../../runtime/protocol/json-value.js';
import { formatCount } from '../shared/format.js';

export type JsonKind = 'string' | 'number' | 'boolean' | 'null' | 'array' | 'object';

export function kindOf(value: JsonValue): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

// Code points, not UTF-16 units: what a user means by "length" (an emoji is one).
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n -= 1;
        i += 1;
      }
    }
  }
  return n;
}

// "string(12)", "array(50 000)", "object(3)", "number": JSON's own type names, like code, so never translated
export function badgeText(value: JsonValue): string {
  const kind = kindOf(value);
  if (kind === 'string') return `string(${formatCount(codePointLength(value as string))})`;
  if (kind === 'array') return `array(${formatCount((value as JsonValue[]).length)})`;
  if (kind === 'object') return `object(${formatCount(Object.keys(value as object).length)})`;
  return kind;
}

const PREVIEW_ITEMS = 5;
const PREVIEW_CHARS = 120;

// A one-line, bounded preview: `"text…"`, `[1, 2, {…}, …]`, `{a: 1, b: […]}`; never walks more than a few entries.
export function previewText(value: JsonValue, nested = false): string {
  const kind = kindOf(value);
  if (kind === 'string') return quoteClipped(value as string, nested ? 24 : PREVIEW_CHARS);
  if (kind !== 'array' && kind !== 'object') return String(value);
  if (nested)
    return kind === 'array'
      ? (value as JsonValue[]).length === 0
        ? '[]'
        : '[…]'
      : Object.keys(value as object).length === 0
        ? '{}'
        : '{…}';
  if (kind === 'array') {
    const items = value as JsonValue[];
    const shown = items.slice(0, PREVIEW_ITEMS).map((v) => previewText(v, true));
    return `[${shown.join(', ')}${items.length > PREVIEW_ITEMS ? ', …' : ''}]`;
  }
  const record = value as Record<string, JsonValue>;
  const keys = Object.keys(record);
  const shown = keys.slice(0, PREVIEW_ITEMS).map((k) => `${keyText(k)}: ${previewText(record[k] as JsonValue, true)}`);
  return `{${shown.join(', ')}${keys.length > PREVIEW_ITEMS ? ', …' : ''}}`;
}

// identifiers bare, everything else JSON-quoted
export function keyText(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

function quoteClipped(text: string, max: number): string {
  if (text.length <= max) return JSON.stringify(text);
  let cut = max;
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut -= 1;
  return `${JSON.stringify(text.slice(0, cut)).slice(0, -1)}…"`;
}
