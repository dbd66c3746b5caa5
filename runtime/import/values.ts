import { checkLossless } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { JsonNode } from './json-node.js';
import { parseChecked } from './json-records.js';

// A value copied out of a transcript: it must be lossless JSON (no -0, no 1e400), or the field is named.
export function jsonValueOf(node: JsonNode): JsonValue {
  const check = checkLossless(node.value);
  if (!check.ok)
    throw node.fail(
      `cannot be replayed: ${check.reason.replace(/^\$/, 'the value')} (only lossless JSON crosses a binding)`,
    );
  return node.value as JsonValue;
}

// What a program received from a tool whose answer the transcript stores as text: JSON text is read as the
// value it spells (a tool that returned a list is seen as a list), anything else stays the string.
export function valueFromToolText(text: string): JsonValue {
  const trimmed = text.trim();
  if (!/^[[{"\-0-9tfn]/.test(trimmed)) return text;
  const parsed = parseChecked(trimmed);
  return parsed.ok && checkLossless(parsed.value).ok ? (parsed.value as JsonValue) : text;
}

// Text parts of a content array (`[{ type: "text", text }]`) or a plain string; other parts are named in `dropped`.
export function textOfContent(node: JsonNode | undefined): { text: string; dropped: string[] } {
  if (node === undefined || node.value === null) return { text: '', dropped: [] };
  if (typeof node.value === 'string') return { text: node.value, dropped: [] };
  const parts: string[] = [];
  const dropped: string[] = [];
  for (const item of node.items()) {
    if (typeof item.value === 'string') {
      parts.push(item.value);
      continue;
    }
    const type = item.tag() ?? 'untyped';
    if (['text', 'input_text', 'output_text'].includes(type)) parts.push(item.str('text'));
    else dropped.push(type);
  }
  return { text: parts.join('\n'), dropped };
}

// Splits printed text into the entries a run's `logs` holds: one per line, the final newline not making one more.
export function linesOf(text: string): string[] {
  if (text === '') return [];
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.split('\n');
}

// `{ "$comment": "…" }` documents a transcript (fixtures cite their sources this way) and carries no data.
export function isComment(node: JsonNode): boolean {
  return node.isObject() && Object.keys(node.value as object).length === 1 && node.has('$comment');
}
