import { z } from 'zod';
import { BindingCallSchema, ErrorCodeSchema } from './binding-call.js';

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
