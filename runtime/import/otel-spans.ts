// OpenTelemetry GenAI spans as exported in OTLP JSON (`resourceSpans[].scopeSpans[].spans[]`, as Langfuse, Arize
// Phoenix, OpenLLMetry and the collector's file exporter write them), turned into Chat Completions-shaped request and
// reply documents the readers already know. Three ways of recording content are read:
//   - the current semantic conventions: `gen_ai.input.messages` / `gen_ai.output.messages` (JSON text of
//     `{ role, parts: [{ type: "text" | "tool_call" | "tool_call_response", … }] }`) and `gen_ai.tool.definitions`;
//   - OpenLLMetry's indexed attributes: `gen_ai.prompt.N.role|content|tool_call_id`,
//     `gen_ai.prompt.N.tool_calls.M.id|name|arguments`, `gen_ai.completion.N.…`, `llm.request.functions.N.…`;
//   - `execute_tool` spans: `gen_ai.tool.call.id`, `gen_ai.tool.name`, `gen_ai.tool.call.arguments|result`.
// Shapes: https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/ and
// https://github.com/open-telemetry/semantic-conventions/blob/main/docs/gen-ai/gen-ai-input-messages.json
import type { ApiDocument } from './api-document.js';
import { JsonNode } from './json-node.js';
import { jsonTextProblem } from './json-records.js';
import { isoTime } from './program-builder.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type ChatMessage = { [key: string]: Json };

export function isOtlpTraces(node: JsonNode): boolean {
  return node.isObject() && node.get('resourceSpans')?.isArray() === true;
}

// The request and reply each GenAI span recorded, in file order; spans without GenAI content give nothing.
export function otelDocuments(root: JsonNode): ApiDocument[] {
  const out: ApiDocument[] = [];
  for (const resource of root.arr('resourceSpans')) {
    if (!resource.isObject()) throw resource.fail('expected a resourceSpans entry object');
    for (const scope of resource.optArr('scopeSpans') ?? resource.optArr('instrumentationLibrarySpans') ?? []) {
      if (!scope.isObject()) throw scope.fail('expected a scopeSpans entry object');
      for (const span of scope.optArr('spans') ?? []) out.push(...spanDocuments(span));
    }
  }
  return out;
}

function spanDocuments(span: JsonNode): ApiDocument[] {
  if (!span.isObject()) throw span.fail('expected a span object');
  const attributes = new Map<string, JsonNode>();
  for (const attribute of span.optArr('attributes') ?? []) {
    if (!attribute.isObject()) throw attribute.fail('expected an attribute object ({ key, value })');
    const value = attribute.optObj('value');
    if (value !== undefined) attributes.set(attribute.str('key'), value);
  }
  const text = (key: string): string | undefined => scalar(attributes.get(key));
  const started = scalar(span.get('startTimeUnixNano'));
  const time =
    started !== undefined && /^\d+$/.test(started) ? { timestamp: isoTime(Number(BigInt(started) / 1_000_000n)) } : {};
  const model = text('gen_ai.request.model') ?? text('gen_ai.response.model');
  const base: Record<string, Json> = model === undefined ? {} : { model };
  const request: ChatMessage[] = [];
  const reply: ChatMessage[] = [];
  const tools: Json[] = [];

  // current conventions: messages and tool definitions as JSON text
  request.push(...partsMessages(jsonAttribute(attributes.get('gen_ai.input.messages'))));
  reply.push(...partsMessages(jsonAttribute(attributes.get('gen_ai.output.messages'))));
  const definitions = jsonAttribute(attributes.get('gen_ai.tool.definitions'));
  if (Array.isArray(definitions)) for (const d of definitions) if (isRecord(d)) tools.push(toolDefinition(d));

  // OpenLLMetry: one attribute per field, indexed
  request.push(...indexedMessages(attributes, 'gen_ai.prompt'));
  reply.push(...indexedMessages(attributes, 'gen_ai.completion'));
  for (const fn of indexed(attributes, 'llm.request.functions')) {
    const name = fn.get('name');
    if (name === undefined) continue;
    const parameters = parseText(fn.get('parameters'));
    tools.push({
      type: 'function',
      function: {
        name,
        ...optional('description', fn.get('description')),
        ...(parameters === undefined ? {} : { parameters }),
      },
    });
  }

  // an executed tool: the call and its answer, when the span did not capture messages
  if (text('gen_ai.operation.name') === 'execute_tool') {
    const id = text('gen_ai.tool.call.id');
    const name = text('gen_ai.tool.name');
    if (id !== undefined && name !== undefined) {
      const args = attributes.get('gen_ai.tool.call.arguments');
      request.push({
        role: 'assistant',
        tool_calls: [
          { id, type: 'function', function: { name, arguments: args === undefined ? '{}' : valueText(args) } },
        ],
      });
      const result = attributes.get('gen_ai.tool.call.result');
      if (result !== undefined) request.push({ role: 'tool', tool_call_id: id, content: valueText(result) });
    }
  }

  const documents: ApiDocument[] = [];
  const make = (value: Record<string, Json>, role: ApiDocument['role']): void => {
    // the document names its places through the span it came from
    const record = {
      value,
      file: span.record.file,
      text: '',
      line: span.record.line,
      embeddedIn: { record: span.record, path: span.path },
    };
    documents.push({ node: JsonNode.of(record), role, ...time });
  };
  if (request.length > 0 || tools.length > 0)
    make({ ...base, messages: request, ...(tools.length > 0 ? { tools } : {}) }, 'request');
  if (reply.length > 0) {
    const id = text('gen_ai.response.id');
    make(
      { ...base, ...(id === undefined ? {} : { id }), choices: reply.map((message, index) => ({ index, message })) },
      'response',
    );
  }
  return documents;
}

// `{ role, parts }` messages (a tool_call_response part becomes a `role: "tool"` answer of its own)
function partsMessages(value: Json | undefined): ChatMessage[] {
  if (!Array.isArray(value)) return [];
  const out: ChatMessage[] = [];
  for (const message of value) {
    if (!isRecord(message)) continue;
    const role = typeof message.role === 'string' ? message.role : 'user';
    // some exporters keep Chat Completions messages as they were
    if (!Array.isArray(message.parts)) {
      out.push(message);
      continue;
    }
    const texts: string[] = [];
    const calls: Json[] = [];
    for (const part of message.parts) {
      if (!isRecord(part)) continue;
      if (part.type === 'text' && typeof part.content === 'string') texts.push(part.content);
      else if (part.type === 'tool_call' && typeof part.id === 'string' && typeof part.name === 'string')
        calls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments ?? {} } });
      else if (part.type === 'tool_call_response' && typeof part.id === 'string')
        out.push({
          role: 'tool',
          tool_call_id: part.id,
          content: typeof part.response === 'string' ? part.response : JSON.stringify(part.response ?? null),
        });
    }
    if (texts.length > 0 || calls.length > 0 || role !== 'tool')
      out.push({
        role,
        content: texts.length > 0 ? texts.join('\n') : null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
  }
  return out;
}

// `gen_ai.prompt.0.role`, `gen_ai.prompt.0.tool_calls.1.name`, … as Chat Completions messages
function indexedMessages(attributes: ReadonlyMap<string, JsonNode>, prefix: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const fields of indexed(attributes, prefix)) {
    const message: ChatMessage = {
      role: fields.get('role') ?? (prefix === 'gen_ai.completion' ? 'assistant' : 'user'),
      content: fields.get('content') ?? null,
    };
    const answered = fields.get('tool_call_id');
    if (answered !== undefined) message.tool_call_id = answered;
    const calls: Json[] = [];
    for (let m = 0; m < MAX_INDEX; m++) {
      const name = fields.get(`tool_calls.${m}.name`);
      if (name === undefined) break;
      calls.push({
        id: fields.get(`tool_calls.${m}.id`) ?? `${prefix}.tool_calls.${m}`,
        type: 'function',
        function: { name, arguments: fields.get(`tool_calls.${m}.arguments`) ?? '{}' },
      });
    }
    if (calls.length > 0) message.tool_calls = calls;
    out.push(message);
  }
  return out;
}

const MAX_INDEX = 10_000;

// The fields under `<prefix>.<n>.` for n = 0, 1, … (stopping at the first index with no field)
function indexed(attributes: ReadonlyMap<string, JsonNode>, prefix: string): Map<string, string>[] {
  const groups: Map<string, string>[] = [];
  const head = `${prefix}.`;
  for (const [key, node] of attributes) {
    if (!key.startsWith(head)) continue;
    const rest = key.slice(head.length);
    const dot = rest.indexOf('.');
    const index = Number(rest.slice(0, dot));
    if (dot === -1 || !Number.isInteger(index) || index < 0 || index >= MAX_INDEX) continue;
    const value = scalar(node);
    if (value === undefined) continue;
    while (groups.length <= index) groups.push(new Map());
    (groups[index] as Map<string, string>).set(rest.slice(dot + 1), value);
  }
  const end = groups.findIndex((g) => g.size === 0);
  return end === -1 ? groups : groups.slice(0, end);
}

function toolDefinition(d: { [key: string]: Json }): Json {
  if (isRecord(d.function)) return d;
  const { type: _type, ...fn } = d;
  return { type: 'function', function: fn };
}

// An OTLP AnyValue as text: strings as they are, numbers and booleans spelled, anything else as JSON
function scalar(value: JsonNode | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value.value === 'string' || typeof value.value === 'number') return String(value.value);
  for (const key of ['stringValue', 'intValue', 'doubleValue', 'boolValue']) {
    const inner = value.get(key)?.value;
    if (typeof inner === 'string' || typeof inner === 'number' || typeof inner === 'boolean') return String(inner);
  }
  return undefined;
}

function valueText(value: JsonNode): string {
  return scalar(value) ?? JSON.stringify(anyValue(value) ?? null);
}

// An attribute whose value is JSON text (the conventions say so); text that is not JSON is a located error
function jsonAttribute(value: JsonNode | undefined): Json | undefined {
  const text = value?.get('stringValue')?.value;
  if (typeof text !== 'string') return value === undefined ? undefined : anyValue(value);
  return (value as JsonNode).embedded('stringValue').value as Json;
}

function parseText(text: string | undefined): Json | undefined {
  if (text === undefined || jsonTextProblem(text) !== undefined) return undefined;
  return JSON.parse(text) as Json;
}

// OTLP AnyValue → plain JSON (arrayValue and kvlistValue included)
function anyValue(value: JsonNode): Json | undefined {
  const array = value.get('arrayValue')?.get('values');
  if (array?.isArray() === true) return array.items().map((item) => anyValue(item) ?? null);
  const list = value.get('kvlistValue')?.get('values');
  if (list?.isArray() === true) {
    const out: { [key: string]: Json } = {};
    for (const kv of list.items()) {
      const key = kv.get('key')?.value;
      const inner = kv.get('value');
      if (typeof key === 'string' && inner !== undefined) out[key] = anyValue(inner) ?? null;
    }
    return out;
  }
  const text = scalar(value);
  if (text === undefined) return undefined;
  const raw = value.get('intValue') ?? value.get('doubleValue');
  if (raw !== undefined) return Number(text);
  if (value.get('boolValue') !== undefined) return text === 'true';
  return text;
}

function optional(key: string, value: string | undefined): Record<string, Json> {
  return value === undefined ? {} : { [key]: value };
}

function isRecord(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
