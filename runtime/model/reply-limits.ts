import type { JsonValue } from '../protocol/json-value.js';
import { decodeLossless } from '../json/lossless.js';
import type { ChatOutcome, ChatReply, ToolCall } from './chat-types.js';

// Bounds on what one model reply may carry; a reply past them fails as invalid-reply, naming the bound.
export const REPLY_LIMITS = {
  // characters of text (and of one tool call's arguments)
  textChars: 1_000_000,
  toolCalls: 32,
  idChars: 200,
} as const;

export type ParsedArguments = { ok: true; value: { [key: string]: JsonValue } } | { ok: false; problem: string };

// A tool call's arguments as the model wrote them: a JSON object, or the reason it is not one.
export function argumentsObject(raw: unknown): ParsedArguments {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.length > REPLY_LIMITS.textChars)
      return { ok: false, problem: `the arguments are longer than ${REPLY_LIMITS.textChars} characters` };
    const decoded = decodeLossless(raw.trim() === '' ? '{}' : raw);
    if (!decoded.ok) return { ok: false, problem: `the arguments are not valid JSON (${decoded.reason})` };
    value = decoded.value;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problem: 'the arguments are not a JSON object' };
  return { ok: true, value: value as { [key: string]: JsonValue } };
}

// One tool call of a reply, whatever the API's field names: its arguments parsed, or why they could not be.
export function toolCallOf(id: string, name: string, rawArguments: unknown): ToolCall {
  const args = argumentsObject(rawArguments);
  return args.ok ? { id, name, input: args.value } : { id, name, input: undefined, inputProblem: args.problem };
}

export type ReplyFailure = Extract<ChatOutcome, { ok: false }>;

// A reply's text past its bound, worded once for every API; undefined when the text is within it.
export function textTooLong(text: string): ReplyFailure | undefined {
  if (text.length <= REPLY_LIMITS.textChars) return undefined;
  return {
    ok: false,
    kind: 'invalid-reply',
    message: `the reply's text is longer than ${REPLY_LIMITS.textChars} characters`,
  };
}

// A reply the API's shape allowed, as the loop receives it: its text within the bound, timed from `started`. Every
// client ends here, so a bound or a field of the reply is decided once.
export function checkedReply(started: number, reply: Omit<ChatReply, 'latencyMs'>): ChatOutcome {
  const tooLong = textTooLong(reply.text);
  if (tooLong !== undefined) return tooLong;
  return { ok: true, reply: { ...reply, latencyMs: performance.now() - started } };
}

// A reply with more tool calls than its bound, worded once for every API.
export function tooManyToolCalls(): ReplyFailure {
  return { ok: false, kind: 'invalid-reply', message: `the reply has more than ${REPLY_LIMITS.toolCalls} tool calls` };
}
