import { z } from 'zod';
import { BindingCallSchema, ErrorCodeSchema } from './binding-call.js';
import type { JsonValue } from './json-value.js';

// The frames of a running program, identical for both backends (Node: length-prefixed frames, Python: JSON lines;
// the framing differs, the frames do not). node-wire.ts and python-wire.ts add only their handshakes, and
// test/runtime/python/wire-mirror.test.ts pins python/ptc_wire.py to these names.

// --- child → host

// `open`: an unterminated line the program flushed; the stream's next log text continues the same entry
export const LogFrameSchema = z
  .object({
    type: z.literal('log'),
    stream: z.enum(['stdout', 'stderr']),
    text: z.string(),
    open: z.literal(true).optional(),
  })
  .strict();

// A binding call; on the bindings channel (when the run has a bindings host) it goes straight to that host.
export const CallFrameSchema = z.object({ type: z.literal('call'), ...BindingCallSchema.shape }).strict();

const LocationWire = z
  .object({ line: z.number().int().positive(), column: z.number().int().positive().optional() })
  .strict();

// The child may only report failures it can observe itself; timeouts, aborts and deaths are host observations.
export const DONE_ERROR_KINDS = ['exception', 'invalid-output', 'output-limit'] as const;
export const DoneErrorSchema = z
  .object({ kind: z.enum(DONE_ERROR_KINDS), message: z.string(), location: LocationWire.optional() })
  .strict();

export const DoneFrameSchema = z
  .object({ type: z.literal('done'), value: z.unknown().optional(), error: DoneErrorSchema.optional() })
  .strict()
  .refine((f) => !(f.error !== undefined && 'value' in f), { message: 'done carries both a value and an error' });

// --- host → child

export type ReplyFrame =
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; message: string; code?: number | string; data?: unknown };

// A failed reply may carry `code` and `data`, set as fields of the error the program catches.
export const ReplyFrameSchema = z.discriminatedUnion('ok', [
  z
    .object({ type: z.literal('reply'), id: z.number().int().positive(), ok: z.literal(true), value: z.unknown() })
    .strict(),
  z
    .object({
      type: z.literal('reply'),
      id: z.number().int().positive(),
      ok: z.literal(false),
      message: z.string(),
      code: z.optional(ErrorCodeSchema),
      data: z.unknown().optional(),
    })
    .strict(),
]);

// What a failed call may tell the program beyond its message: fields set on the error it catches (`error.code`,
// `error.data`), e.g. an MCP server's JSON-RPC error code and data.
export interface FailureDetails {
  code?: number | string;
  data?: JsonValue;
}

// A finished call's answer as the host holds it: the value already as lossless JSON text, or a failure.
type FailedReply = { ok: false; message: string; details?: FailureDetails };
export type CallReply = { ok: true; valueText: string } | FailedReply;

// The reply frame's writer, beside its schema (same JSON on both backends' channels). `pausedMs`: how long the call
// waited for a decision, for a child that keeps a deadline of its own (QuickJS; never sent on Python's strict wire).
export function replyText(id: number, reply: CallReply, pausedMs?: number): string {
  const paused = pausedMs === undefined ? '' : `,"pausedMs":${pausedMs}`;
  if (reply.ok) return `{"type":"reply","id":${id},"ok":true,"value":${reply.valueText}${paused}}`;
  const frame: Record<string, unknown> = { type: 'reply', id, ok: false, message: reply.message };
  if (pausedMs !== undefined) frame.pausedMs = pausedMs;
  // the error's fields beside its message (checked lossless when recorded)
  if (reply.details?.code !== undefined) frame.code = reply.details.code;
  if (reply.details?.data !== undefined) frame.data = reply.details.data;
  return JSON.stringify(frame);
}

// The run's bindings host is gone (exited, stopped responding, restarted): the child fails every call still
// waiting with `message` and sends later calls on its control channel, where the runtime answers them.
export const BindingsLostFrameSchema = z.object({ type: z.literal('bindings-lost'), message: z.string() }).strict();

// Field names per frame type, for the TS ↔ Python mirror test.
export function programWireFields(): {
  child: Record<string, string[]>;
  host: Record<string, string[]>;
  doneError: string[];
  doneKinds: string[];
} {
  const keys = (schema: { shape: Record<string, unknown> }): string[] => Object.keys(schema.shape).sort();
  return {
    child: { log: keys(LogFrameSchema), call: keys(CallFrameSchema), done: keys(DoneFrameSchema) },
    host: {
      reply: [...new Set(ReplyFrameSchema.options.flatMap((o) => keys(o)))].sort(),
      'bindings-lost': keys(BindingsLostFrameSchema),
    },
    doneError: keys(DoneErrorSchema),
    doneKinds: [...DONE_ERROR_KINDS],
  };
}

// --- the fast reader of big frames (its test checks it against JSON.parse and the schemas above)

// The two frames that carry a program's big output — a log line and a completion returning a string — read without a
// JSON.parse copy when the string has no escapes: its value is then exactly the text between the quotes, taken as a
// slice of the frame text (V8 shares the characters). A 60 MiB line is then held once, not once as frame text and
// again as its parsed value. Anything else (escapes, other shapes, other spellings) returns undefined and takes the
// ordinary path: full parse, lossless check, wire schema — which the result of this shortcut also goes through.

const LOG_PREFIXES = ['{"type":"log","stream":"stdout","text":"', '{"type":"log","stream":"stderr","text":"'] as const;
const DONE_PREFIX = '{"type":"done","value":"';
const SUFFIX = '"}';
// Shorter frames gain nothing from the shortcut.
const MIN_CHARS = 64 * 1024;
// A quote, a backslash or a control character (invalid raw in JSON): the content is not its own value.
const NOT_LITERAL = /["\\\u0000-\u001f]/;

export function shortcutStringFrame(
  text: string,
): { type: 'log'; stream: 'stdout' | 'stderr'; text: string } | { type: 'done'; value: string } | undefined {
  if (text.length < MIN_CHARS || !text.endsWith(SUFFIX)) return undefined;
  for (const prefix of LOG_PREFIXES) {
    if (!text.startsWith(prefix)) continue;
    const content = literalContent(text, prefix.length);
    return content === undefined
      ? undefined
      : { type: 'log', stream: prefix === LOG_PREFIXES[0] ? 'stdout' : 'stderr', text: content };
  }
  if (!text.startsWith(DONE_PREFIX)) return undefined;
  const content = literalContent(text, DONE_PREFIX.length);
  return content === undefined ? undefined : { type: 'done', value: content };
}

function literalContent(text: string, start: number): string | undefined {
  const content = text.slice(start, text.length - SUFFIX.length);
  return NOT_LITERAL.test(content) ? undefined : content;
}
