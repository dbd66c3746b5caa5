import type { JsonValue } from '../../protocol/json-value.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export type McpCallOutcome = { ok: true; value: JsonValue } | { ok: false; message: string };

// A tools/call result as the program sees it: structured content as JSON, text as a string, errors as rejections.
export function mapToolResult(result: unknown): McpCallOutcome {
  if (!isObject(result)) return { ok: false, message: 'MCP server answered tools/call with a non-object result' };
  const content = Array.isArray(result.content) ? result.content : [];
  const texts = content.filter((c): c is { type: 'text'; text: string } => isObject(c) && c.type === 'text' && typeof c.text === 'string');
  if (result.isError === true) {
    const message = texts
      .map((t) => t.text)
      .join('\n')
      .trim();
    return { ok: false, message: message.length > 0 ? message : 'MCP tool reported an error without a message' };
  }
  if (result.structuredContent !== undefined) return { ok: true, value: result.structuredContent as JsonValue };
  if (content.length === 0) return { ok: true, value: null };
  if (texts.length === content.length) return { ok: true, value: texts.map((t) => t.text).join('\n') };
  // mixed content (images, resources): each text item as its string, every other item as its JSON
  return { ok: true, value: content.map((c) => (isObject(c) && c.type === 'text' && typeof c.text === 'string' ? c.text : (c as JsonValue))) };
}
