// Streamed API replies as logs keep them — server-sent events (`event:`/`data:` text, raw or inside a recorded body)
// or one event JSON per line — reassembled into the reply objects the format readers take: Anthropic Messages
// (`message_start` … `content_block_delta` … `message_stop`) and OpenAI Responses (`response.output_item.*`,
// `response.completed`).
import { ImportFailure } from './import-error.js';
import { fieldFailure, type JsonRecord, jsonTextProblem } from './json-records.js';
import { IMPORT_LIMITS } from './limits.js';

const SSE_START = /^\s*(?:event|data|id|retry)\s*:/;

// Text that is a server-sent event stream rather than JSON.
export function looksLikeSse(text: string): boolean {
  return SSE_START.test(text) && /^data\s*:/m.test(text);
}

// Each `data:` payload of an SSE stream as a record (multi-line data joined as the SSE spec says); `[DONE]` and
// comments are skipped. `origin` places the events: a file's own lines, or a recorded body inside another record.
export function sseRecords(
  text: string,
  origin: { file: string; line: number; parent?: JsonRecord; path?: (string | number)[] },
): JsonRecord[] {
  const records: JsonRecord[] = [];
  let data: string[] = [];
  let startLine = origin.line;
  const flush = (): void => {
    if (data.length === 0) return;
    const payload = data.join('\n');
    data = [];
    if (payload.trim() === '[DONE]') return;
    const problem = jsonTextProblem(payload);
    if (problem !== undefined) {
      if (origin.parent !== undefined)
        throw fieldFailure(
          origin.parent,
          origin.path ?? [],
          `holds a streamed event whose data is not JSON: ${problem.message}`,
        );
      throw new ImportFailure({
        file: origin.file,
        line: startLine,
        message: `a streamed event's data is not JSON: ${problem.message}`,
      });
    }
    if (records.length >= IMPORT_LIMITS.maxRecords)
      throw new ImportFailure({
        file: origin.file,
        line: startLine,
        message: `more than ${IMPORT_LIMITS.maxRecords} streamed events`,
      });
    const base = { value: JSON.parse(payload) as unknown, file: origin.file, text: payload, line: startLine };
    records.push(
      origin.parent === undefined
        ? base
        : { ...base, line: origin.parent.line, embeddedIn: { record: origin.parent, path: origin.path ?? [] } },
    );
  };
  const lines = text.split(/\r\n|\r|\n/);
  for (const [i, line] of lines.entries()) {
    if (line === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field.trim() !== 'data') continue;
    if (data.length === 0) startLine = origin.line + i;
    data.push(value);
  }
  flush();
  return records;
}

export type StreamKind = 'anthropic' | 'openai';

// Which API's stream event a value is, if it is one.
export function streamEventKind(value: unknown): StreamKind | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string') return undefined;
  if (ANTHROPIC_EVENTS.has(type)) return 'anthropic';
  if (
    type.startsWith('response.') &&
    (Object.hasOwn(value, 'sequence_number') ||
      Object.hasOwn(value, 'response') ||
      Object.hasOwn(value, 'item') ||
      Object.hasOwn(value, 'output_index'))
  )
    return 'openai';
  return undefined;
}

const ANTHROPIC_EVENTS = new Set([
  'ping',
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
]);

// The replies a run of stream events adds up to, each as a record placed at the event that began it.
export function reassemble(events: readonly JsonRecord[]): JsonRecord[] {
  const out: JsonRecord[] = [];
  let anthropic: AnthropicState | undefined;
  let openai: OpenAiState | undefined;
  const finishAnthropic = (): void => {
    if (anthropic !== undefined) out.push(derived(anthropic.first, finishMessage(anthropic)));
    anthropic = undefined;
  };
  const finishOpenAi = (): void => {
    if (openai !== undefined) out.push(derived(openai.first, finishResponse(openai)));
    openai = undefined;
  };
  for (const record of events) {
    const kind = streamEventKind(record.value);
    const event = record.value as Record<string, unknown>;
    if (kind === 'anthropic') {
      if (event.type === 'message_start') {
        finishAnthropic();
        anthropic = { first: record, message: { ...(asObject(event.message) ?? {}), content: [] }, partial: new Map() };
        continue;
      }
      anthropic ??= { first: record, message: { type: 'message', role: 'assistant', content: [] }, partial: new Map() };
      if (anthropicEvent(anthropic, event)) finishAnthropic();
    } else if (kind === 'openai') {
      openai ??= { first: record, response: undefined, items: [], final: undefined };
      if (openAiEvent(openai, event)) finishOpenAi();
    }
  }
  finishAnthropic();
  finishOpenAi();
  return out;
}

interface AnthropicState {
  first: JsonRecord;
  message: Record<string, unknown>;
  // index → the input JSON text streamed so far
  partial: Map<number, string>;
}

// true when the message is complete
function anthropicEvent(state: AnthropicState, event: Record<string, unknown>): boolean {
  const content = state.message.content as unknown[];
  const index =
    typeof event.index === 'number' && Number.isInteger(event.index) && event.index >= 0 && event.index < 100_000
      ? event.index
      : undefined;
  switch (event.type) {
    case 'content_block_start': {
      const block = asObject(event.content_block);
      if (index !== undefined && block !== undefined) content[index] = { ...block };
      return false;
    }
    case 'content_block_delta': {
      const delta = asObject(event.delta);
      const block = index === undefined ? undefined : asObject(content[index]);
      if (delta === undefined || block === undefined || index === undefined) return false;
      if (delta.type === 'text_delta' && typeof delta.text === 'string')
        block.text = `${typeof block.text === 'string' ? block.text : ''}${delta.text}`;
      else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string')
        state.partial.set(index, `${state.partial.get(index) ?? ''}${delta.partial_json}`);
      else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
        block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${delta.thinking}`;
      else if (delta.type === 'signature_delta' && typeof delta.signature === 'string')
        block.signature = delta.signature;
      else if (delta.type === 'citations_delta' && delta.citation !== undefined)
        block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
      return false;
    }
    case 'content_block_stop':
      if (index !== undefined) closeBlock(state, index);
      return false;
    case 'message_delta': {
      const delta = asObject(event.delta);
      if (delta !== undefined)
        for (const [key, value] of Object.entries(delta))
          if (value !== null || !Object.hasOwn(state.message, key)) state.message[key] = value;
      const usage = asObject(event.usage);
      if (usage !== undefined) state.message.usage = { ...asObject(state.message.usage), ...usage };
      return false;
    }
    case 'message_stop':
      return true;
    default:
      return false;
  }
}

// The streamed input JSON replaces the empty `input` the block started with; text that is not JSON stays visible.
function closeBlock(state: AnthropicState, index: number): void {
  const text = state.partial.get(index);
  state.partial.delete(index);
  const block = asObject((state.message.content as unknown[])[index]);
  if (text === undefined || block === undefined || text.trim() === '') return;
  block.input = jsonTextProblem(text) === undefined ? (JSON.parse(text) as unknown) : { __streamed_input_text: text };
}

function finishMessage(state: AnthropicState): Record<string, unknown> {
  for (const index of [...state.partial.keys()]) closeBlock(state, index);
  // holes left by blocks that never started
  state.message.content = (state.message.content as unknown[]).filter((b) => b !== undefined);
  return state.message;
}

interface OpenAiState {
  first: JsonRecord;
  response: Record<string, unknown> | undefined;
  items: unknown[];
  final: Record<string, unknown> | undefined;
}

// true when the response is complete
function openAiEvent(state: OpenAiState, event: Record<string, unknown>): boolean {
  const type = event.type as string;
  const index =
    typeof event.output_index === 'number' &&
    Number.isInteger(event.output_index) &&
    event.output_index >= 0 &&
    event.output_index < 100_000
      ? event.output_index
      : undefined;
  if (type === 'response.created' || type === 'response.in_progress' || type === 'response.queued') {
    state.response = asObject(event.response) ?? state.response;
    return false;
  }
  if ((type === 'response.output_item.added' || type === 'response.output_item.done') && index !== undefined) {
    const item = asObject(event.item);
    if (item !== undefined) state.items[index] = { ...item };
    return false;
  }
  if (type === 'response.function_call_arguments.done' && index !== undefined) {
    const item = asObject(state.items[index]);
    if (item !== undefined && typeof event.arguments === 'string') item.arguments = event.arguments;
    return false;
  }
  if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') {
    state.final = asObject(event.response);
    return true;
  }
  return false;
}

function finishResponse(state: OpenAiState): Record<string, unknown> {
  const items = state.items.filter((i) => i !== undefined);
  const final = state.final ?? { ...state.response, object: 'response' };
  // a final response logged without its output (some loggers trim it) keeps the items streamed before it
  const output = Array.isArray(final.output) && final.output.length > 0 ? final.output : items;
  return { ...final, object: 'response', output };
}

// A reply built from events: it is placed where its first event is, and its fields are named by path from there.
function derived(first: JsonRecord, value: Record<string, unknown>): JsonRecord {
  return {
    value,
    file: first.file,
    text: first.text,
    line: first.line,
    derivedFrom: first,
    ...(first.embeddedIn === undefined ? {} : { embeddedIn: first.embeddedIn }),
  };
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
