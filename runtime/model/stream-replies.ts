// Streamed model replies put back together, event by event: Anthropic Messages (`message_start` …
// `content_block_delta` … `message_stop`), OpenAI Responses (`response.output_item.*`, `response.*.delta`,
// `response.completed`) and OpenAI Chat Completions (`chat.completion.chunk`s). Each yields the reply object the
// non-streamed API would have sent, and what has arrived so far (for a front end to show as it comes).

import type { ChatProgress, ModelFailureKind } from './chat-types.js';

// Parses a tool input's JSON text; undefined when it is not JSON.
export type InputParser = (text: string) => { value: unknown } | undefined;

const parseJson: InputParser = (text) => {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
};

// Indices come from the stream: bounded, so a hostile one cannot allocate a huge sparse array.
const MAX_INDEX = 100_000;

export interface ReplyStream {
  // false until the event that ends the reply
  push(event: unknown): boolean;
  // the reply object as the non-streamed API sends it
  reply(): Record<string, unknown>;
  progress(): ChatProgress;
}

// The reply as one JSON value, alike for every API: what `stream` put together when the reply came as events, else the
// body (a server may answer a streamed request with plain JSON).
export function replyJson(posted: { json: unknown; streamed?: boolean }, stream: ReplyStream | undefined): unknown {
  return posted.streamed === true && stream !== undefined ? stream.reply() : posted.json;
}

export class AnthropicMessageStream implements ReplyStream {
  #message: Record<string, unknown> = { type: 'message', role: 'assistant', content: [] };
  // index → the input JSON text streamed so far
  readonly #partial = new Map<number, string>();
  readonly #parse: InputParser;

  constructor(parse: InputParser = parseJson) {
    this.#parse = parse;
  }

  push(value: unknown): boolean {
    const event = asObject(value);
    if (event === undefined) return false;
    const content = this.#message.content as unknown[];
    const index = indexOf(event.index);
    switch (event.type) {
      case 'message_start':
        this.#message = { ...(asObject(event.message) ?? {}), content: [] };
        this.#partial.clear();
        return false;
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
          this.#partial.set(index, `${this.#partial.get(index) ?? ''}${delta.partial_json}`);
        else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
          block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${delta.thinking}`;
        else if (delta.type === 'signature_delta' && typeof delta.signature === 'string')
          block.signature = delta.signature;
        else if (delta.type === 'citations_delta' && delta.citation !== undefined)
          block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
        return false;
      }
      case 'content_block_stop':
        if (index !== undefined) this.#close(index);
        return false;
      case 'message_delta': {
        const delta = asObject(event.delta);
        if (delta !== undefined)
          for (const [key, v] of Object.entries(delta))
            if (v !== null || !Object.hasOwn(this.#message, key)) this.#message[key] = v;
        const usage = asObject(event.usage);
        if (usage !== undefined) this.#message.usage = { ...asObject(this.#message.usage), ...usage };
        return false;
      }
      case 'message_stop':
        return true;
      default:
        return false;
    }
  }

  // The streamed input JSON replaces the empty `input` the block started with; text that is not JSON stays visible.
  #close(index: number): void {
    const text = this.#partial.get(index);
    this.#partial.delete(index);
    const block = asObject((this.#message.content as unknown[])[index]);
    if (text === undefined || block === undefined || text.trim() === '') return;
    block.input = this.#parse(text)?.value ?? { __streamed_input_text: text };
  }

  reply(): Record<string, unknown> {
    for (const index of [...this.#partial.keys()]) this.#close(index);
    // holes left by blocks that never started
    this.#message.content = (this.#message.content as unknown[]).filter((b) => b !== undefined);
    return this.#message;
  }

  progress(): ChatProgress {
    const progress: ChatProgress = { text: '', toolCalls: [] };
    for (const [index, value] of (this.#message.content as unknown[]).entries()) {
      const block = asObject(value);
      if (block?.type === 'text' && typeof block.text === 'string') progress.text += block.text;
      else if (block?.type === 'tool_use' && typeof block.name === 'string')
        progress.toolCalls.push({
          name: block.name,
          input: this.#partial.get(index) ?? (block.input === undefined ? '' : JSON.stringify(block.input)),
        });
    }
    return progress;
  }
}

export class ResponsesStream implements ReplyStream {
  #response: Record<string, unknown> | undefined;
  readonly #items: unknown[] = [];
  #final: Record<string, unknown> | undefined;
  // output index → text or arguments streamed so far
  readonly #text = new Map<number, string>();
  readonly #arguments = new Map<number, string>();

  push(value: unknown): boolean {
    const event = asObject(value);
    if (event === undefined || typeof event.type !== 'string') return false;
    const type = event.type;
    const index = indexOf(event.output_index);
    if (type === 'response.created' || type === 'response.in_progress' || type === 'response.queued') {
      this.#response = asObject(event.response) ?? this.#response;
      return false;
    }
    if ((type === 'response.output_item.added' || type === 'response.output_item.done') && index !== undefined) {
      const item = asObject(event.item);
      if (item !== undefined) this.#items[index] = { ...item };
      return false;
    }
    if (type === 'response.output_text.delta' && index !== undefined && typeof event.delta === 'string') {
      this.#text.set(index, `${this.#text.get(index) ?? ''}${event.delta}`);
      return false;
    }
    if (type === 'response.function_call_arguments.delta' && index !== undefined && typeof event.delta === 'string') {
      this.#arguments.set(index, `${this.#arguments.get(index) ?? ''}${event.delta}`);
      return false;
    }
    if (type === 'response.function_call_arguments.done' && index !== undefined) {
      const item = asObject(this.#items[index]);
      if (item !== undefined && typeof event.arguments === 'string') item.arguments = event.arguments;
      return false;
    }
    if (type === 'response.completed' || type === 'response.incomplete' || type === 'response.failed') {
      this.#final = asObject(event.response);
      return true;
    }
    return false;
  }

  reply(): Record<string, unknown> {
    const items = this.#items.filter((i) => i !== undefined);
    const final = this.#final ?? { ...this.#response, object: 'response' };
    // a final response logged without its output (some loggers trim it) keeps the items streamed before it
    const output = Array.isArray(final.output) && final.output.length > 0 ? final.output : items;
    return { ...final, object: 'response', output };
  }

  progress(): ChatProgress {
    const progress: ChatProgress = { text: '', toolCalls: [] };
    for (const [index, value] of this.#items.entries()) {
      const item = asObject(value);
      if (item?.type === 'message') progress.text += this.#text.get(index) ?? '';
      else if (item?.type === 'function_call' && typeof item.name === 'string')
        progress.toolCalls.push({
          name: item.name,
          input: this.#arguments.get(index) ?? (typeof item.arguments === 'string' ? item.arguments : ''),
        });
    }
    return progress;
  }
}

interface ChatToolCallState {
  id: string | undefined;
  type: string;
  name: string;
  arguments: string;
}

// Chat Completions chunks: the first choice's deltas (content, refusal, tool_calls by index) added up; the usage
// arrives in a last chunk with no choices when `stream_options.include_usage` was asked for.
export class ChatCompletionStream implements ReplyStream {
  readonly #head: Record<string, unknown> = {};
  #content: string | undefined;
  #refusal: string | undefined;
  readonly #calls: ChatToolCallState[] = [];
  #finish: string | null = null;
  #usage: unknown = undefined;

  push(value: unknown): boolean {
    const chunk = asObject(value);
    if (chunk === undefined) return false;
    for (const key of ['id', 'model', 'created', 'system_fingerprint'])
      if (chunk[key] !== undefined && chunk[key] !== null) this.#head[key] = chunk[key];
    if (chunk.usage !== undefined && chunk.usage !== null) this.#usage = chunk.usage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    const choice = asObject(choices.find((c) => (asObject(c)?.index ?? 0) === 0));
    if (choice === undefined) return false;
    const delta = asObject(choice.delta) ?? {};
    if (typeof delta.content === 'string') this.#content = `${this.#content ?? ''}${delta.content}`;
    if (typeof delta.refusal === 'string') this.#refusal = `${this.#refusal ?? ''}${delta.refusal}`;
    if (Array.isArray(delta.tool_calls))
      for (const raw of delta.tool_calls) {
        const call = asObject(raw);
        const at = indexOf(call?.index ?? this.#calls.length);
        if (call === undefined || at === undefined) continue;
        const fn = asObject(call.function) ?? {};
        const state = (this.#calls[at] ??= { id: undefined, type: 'function', name: '', arguments: '' });
        if (typeof call.id === 'string') state.id = call.id;
        if (typeof call.type === 'string') state.type = call.type;
        if (typeof fn.name === 'string') state.name += fn.name;
        if (typeof fn.arguments === 'string') state.arguments += fn.arguments;
      }
    if (typeof choice.finish_reason !== 'string') return false;
    // the text and calls are whole at finish_reason; the usage chunk that may follow is still taken
    this.#finish = choice.finish_reason;
    return true;
  }

  reply(): Record<string, unknown> {
    const calls = this.#calls.filter((c) => c !== undefined);
    return {
      ...this.#head,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          finish_reason: this.#finish,
          message: {
            role: 'assistant',
            content: this.#content ?? null,
            ...(this.#refusal === undefined ? {} : { refusal: this.#refusal }),
            ...(calls.length === 0
              ? {}
              : {
                  tool_calls: calls.map((c) => ({
                    ...(c.id === undefined ? {} : { id: c.id }),
                    type: c.type,
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }),
          },
        },
      ],
      ...(this.#usage === undefined ? {} : { usage: this.#usage }),
    };
  }

  progress(): ChatProgress {
    return {
      text: this.#content ?? this.#refusal ?? '',
      toolCalls: this.#calls.filter((c) => c !== undefined).map((c) => ({ name: c.name, input: c.arguments })),
    };
  }
}

function indexOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < MAX_INDEX ? value : undefined;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

// An error the stream itself reports (Anthropic's `error` event, a Responses `error` event, a Chat Completions chunk
// carrying `error`): the request ends with it. Overloaded and rate limits read as rate-limited, as their statuses do.
export function streamError(value: unknown): { kind: ModelFailureKind; message: string } | undefined {
  const event = asObject(value);
  if (event === undefined) return undefined;
  const nested = asObject(event.error);
  if (event.type !== 'error' && nested === undefined) return undefined;
  const type = [nested?.type, nested?.code, event.code].find((t) => typeof t === 'string') as string | undefined;
  const text = [nested?.message, event.message].find((m) => typeof m === 'string') as string | undefined;
  const limited = type !== undefined && /overloaded|rate_limit/.test(type);
  return {
    kind: limited ? 'rate-limited' : 'unavailable',
    message: `the model API's stream ended with an error${type === undefined ? '' : ` (${type})`}: ${(text ?? 'no message').slice(0, 500)}`,
  };
}

const PROGRESS_EVERY_MS = 100;

// The `onEvent` of a streamed request: each event goes into the reply, and what has arrived is reported at most every
// 100 ms (a reply of thousands of small deltas does not rebuild its text thousands of times).
export function streamEvents(
  stream: ReplyStream,
  onProgress: (progress: ChatProgress) => void,
): (data: unknown) => { kind: ModelFailureKind; message: string } | undefined {
  let last = 0;
  return (data) => {
    const problem = streamError(data);
    if (problem !== undefined) return problem;
    const complete = stream.push(data);
    const now = performance.now();
    if (complete || now - last >= PROGRESS_EVERY_MS) {
      last = now;
      onProgress(stream.progress());
    }
    return undefined;
  };
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

// The string value of a top-level field of a JSON object whose text may be cut anywhere (a tool call's input while it
// streams): what has arrived of it, escapes decoded; undefined until the value has begun.
export function partialStringField(json: string, field: string): string | undefined {
  let depth = 0;
  let i = 0;
  const readString = (): { value: string; closed: boolean } => {
    let value = '';
    i++; // the opening quote
    while (i < json.length) {
      const c = json[i] as string;
      if (c === '"') {
        i++;
        return { value, closed: true };
      }
      if (c !== '\\') {
        value += c;
        i++;
        continue;
      }
      const next = json[i + 1];
      if (next === undefined) break;
      if (next === 'u') {
        const hex = json.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) break;
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else {
        value += ESCAPES[next] ?? next;
        i += 2;
      }
    }
    return { value, closed: false };
  };
  while (i < json.length) {
    const c = json[i] as string;
    if (c === '"') {
      const key = readString();
      if (!key.closed) return undefined;
      if (depth !== 1 || key.value !== field) continue;
      const after = /^\s*:\s*/.exec(json.slice(i));
      if (after === null) continue;
      i += after[0].length;
      if (json[i] !== '"') return undefined;
      return readString().value;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    i++;
  }
  return undefined;
}
