// Streamed API replies as logs keep them — server-sent events (`event:`/`data:` text, raw or inside a recorded body)
// or one event JSON per line — reassembled into the reply objects the format readers take: Anthropic Messages
// (`message_start` … `content_block_delta` … `message_stop`) and OpenAI Responses (`response.output_item.*`,
// `response.completed`).
import { ImportFailure } from './import-error.js';
import { fieldFailure, type JsonRecord, jsonTextProblem } from './json-records.js';
import { IMPORT_LIMITS } from './limits.js';
import { sseEvents } from '../model/sse-decoder.js';
import { AnthropicMessageStream, ResponsesStream } from '../model/stream-replies.js';

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
  for (const event of sseEvents(text)) {
    const payload = event.data;
    const startLine = origin.line + event.line;
    if (payload.trim() === '[DONE]') continue;
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
  }
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
  let anthropic: { first: JsonRecord; stream: AnthropicMessageStream } | undefined;
  let openai: { first: JsonRecord; stream: ResponsesStream } | undefined;
  const finishAnthropic = (): void => {
    if (anthropic !== undefined) out.push(derived(anthropic.first, anthropic.stream.reply()));
    anthropic = undefined;
  };
  const finishOpenAi = (): void => {
    if (openai !== undefined) out.push(derived(openai.first, openai.stream.reply()));
    openai = undefined;
  };
  for (const record of events) {
    const kind = streamEventKind(record.value);
    const event = record.value as Record<string, unknown>;
    if (kind === 'anthropic') {
      // a message_start begins the next reply even when the last one never stopped
      if (event.type === 'message_start') finishAnthropic();
      anthropic ??= { first: record, stream: new AnthropicMessageStream(checkedInput) };
      if (anthropic.stream.push(event)) finishAnthropic();
    } else if (kind === 'openai') {
      openai ??= { first: record, stream: new ResponsesStream() };
      if (openai.stream.push(event)) finishOpenAi();
    }
  }
  finishAnthropic();
  finishOpenAi();
  return out;
}

// A streamed tool input is JSON only when the import's strict reader takes it.
function checkedInput(text: string): { value: unknown } | undefined {
  return jsonTextProblem(text) === undefined ? { value: JSON.parse(text) as unknown } : undefined;
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
