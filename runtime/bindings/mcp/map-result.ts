import type { JsonValue } from '../../protocol/json-value.js';
import type { FailureDetails } from '../../protocol/program-wire.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';

// How a tool's answer becomes the program's value (declared per server or per tool; the SDK's types follow it):
// 'structured' the structuredContent object (default for a tool with an output schema), 'content' the content items
// in the one shape below (default otherwise), 'text' the text items joined, 'json' the text parsed as JSON.
export const RESULT_MODES = ['structured', 'content', 'text', 'json'] as const;
export type ResultMode = (typeof RESULT_MODES)[number];

// One content item as the program always sees it, whatever the server sent: the MCP spec's own shapes with only
// their defined fields (annotations kept on every kind, `_meta` dropped). Anything else is an `unknown` item.
export type McpContent =
  | { type: 'text'; text: string; annotations?: JsonValue }
  | { type: 'image' | 'audio'; data: string; mimeType: string; annotations?: JsonValue }
  | { type: 'resource'; resource: McpResourceContents; annotations?: JsonValue }
  | ({ type: 'resource_link' } & McpResourceEntry & { annotations?: JsonValue })
  | { type: 'unknown'; original: string };

// A resource as resources/list names it; a tool's resource_link item is the same descriptor (MCP's ResourceLink
// extends Resource).
export interface McpResourceEntry {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

// A resource's contents, as embedded in a result or read with resources/read.
export type McpResourceContents =
  { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

export type McpCallOutcome =
  { ok: true; value: JsonValue } | { ok: false; message: string; details?: FailureDetails; refused?: true };

function withAnnotations<T extends object>(item: T, raw: Record<string, unknown>): T & { annotations?: JsonValue } {
  return isObject(raw.annotations) ? { ...item, annotations: raw.annotations as JsonValue } : item;
}

// A resource descriptor with only its defined fields; undefined without a string uri and name.
export function normalizeResourceEntry(raw: unknown): McpResourceEntry | undefined {
  if (!isObject(raw) || !str(raw.uri) || !str(raw.name)) return undefined;
  const entry: McpResourceEntry = { uri: raw.uri, name: raw.name };
  if (str(raw.title)) entry.title = raw.title;
  if (str(raw.description)) entry.description = raw.description;
  if (str(raw.mimeType)) entry.mimeType = raw.mimeType;
  if (typeof raw.size === 'number' && Number.isFinite(raw.size)) entry.size = raw.size;
  return entry;
}

export function normalizeResourceContents(raw: unknown): McpResourceContents | undefined {
  if (!isObject(raw) || !str(raw.uri)) return undefined;
  const base = str(raw.mimeType) ? { uri: raw.uri, mimeType: raw.mimeType } : { uri: raw.uri };
  if (str(raw.text)) return { ...base, text: raw.text };
  if (str(raw.blob)) return { ...base, blob: raw.blob };
  return undefined;
}

// One item of a server's content array in the stable shape (a malformed item becomes `unknown`, never a failure).
export function normalizeContent(raw: unknown): McpContent {
  const unknown = (): McpContent => ({ type: 'unknown', original: safeJson(raw) });
  if (!isObject(raw)) return unknown();
  switch (raw.type) {
    case 'text':
      return str(raw.text) ? withAnnotations({ type: 'text', text: raw.text }, raw) : unknown();
    case 'image':
    case 'audio':
      return str(raw.data) && str(raw.mimeType)
        ? withAnnotations({ type: raw.type, data: raw.data, mimeType: raw.mimeType }, raw)
        : unknown();
    case 'resource': {
      const resource = normalizeResourceContents(raw.resource);
      return resource === undefined ? unknown() : withAnnotations({ type: 'resource', resource }, raw);
    }
    case 'resource_link': {
      const entry = normalizeResourceEntry(raw);
      return entry === undefined ? unknown() : withAnnotations({ type: 'resource_link', ...entry }, raw);
    }
    default:
      return unknown();
  }
}

function safeJson(value: unknown): string {
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, 1_000);
  } catch {
    return String(value).slice(0, 1_000);
  }
}

const textOf = (items: readonly McpContent[]): string =>
  items
    .filter((c): c is Extract<McpContent, { type: 'text' }> => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

// A tools/call result as the program sees it under `mode` (the server's bytes are hostile: every field is checked).
export function mapToolResult(result: unknown, mode: ResultMode = 'content'): McpCallOutcome {
  if (!isObject(result)) return { ok: false, message: 'the MCP server answered tools/call with a non-object result' };
  const items = (Array.isArray(result.content) ? result.content : []).map(normalizeContent);
  const structured = isObject(result.structuredContent) ? (result.structuredContent as JsonValue) : undefined;
  if (result.isError === true) {
    const message = textOf(items).trim();
    const failure: McpCallOutcome = {
      ok: false,
      message: message.length > 0 ? message : 'the MCP tool reported an error without a message',
    };
    // a tool's structured error (its own fields) reaches the program as `error.data`
    if (structured !== undefined) failure.details = { data: structured };
    return failure;
  }
  switch (mode) {
    case 'content':
      return { ok: true, value: items as JsonValue };
    case 'text': {
      const other = items.find((c) => c.type !== 'text');
      if (other !== undefined)
        return {
          ok: false,
          refused: true,
          message: `the tool answered ${other.type} content, which result mode 'text' cannot carry (use 'content')`,
        };
      return { ok: true, value: textOf(items) };
    }
    case 'json':
      return parseJsonText(items, 'json');
    case 'structured': {
      if (structured !== undefined) return { ok: true, value: structured };
      // the spec's fallback (a tool with an output schema should also serialize its result as JSON text), else the
      // text itself: either way the output schema check that follows reports a mismatch as a warning, never a failure
      const parsed = parseJsonText(items, 'structured');
      return parsed.ok ? parsed : { ok: true, value: textOf(items) };
    }
  }
}

function parseJsonText(items: readonly McpContent[], mode: ResultMode): McpCallOutcome {
  const text = textOf(items);
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return {
      ok: false,
      refused: true,
      message: `result mode '${mode}': the tool's text is not JSON: ${JSON.stringify(shown)}`,
    };
  }
}

// A JSON-RPC error's message without the SDK's "MCP error <code>: " prefix (a server built on the SDK adds it too).
export function cleanRpcMessage(message: string): string {
  let out = message;
  while (/^MCP error -?\d+: /.test(out)) out = out.replace(/^MCP error -?\d+: /, '');
  return out;
}
