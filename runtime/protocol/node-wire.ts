import { z } from 'zod';

// Control protocol between the host and the Node child (descriptors in node-fds.ts), one JSON object a frame.
export { NODE_CHILD_READ_FD, NODE_CHILD_WRITE_FD } from './node-fds.js';

const ErrorClassWire = z.object({ name: z.string(), memberNameProperty: z.string() }).strict();

export const BootFrameSchema = z
  .object({
    type: z.literal('boot'),
    code: z.string(),
    namespaces: z.array(z.object({ global: z.string(), names: z.array(z.string()), errorClass: ErrorClassWire.optional() }).strict()),
    maxOutputBytes: z.number().int().positive(),
    maxPendingCalls: z.number().int().positive(),
    tmpdir: z.string(),
    // fixed clock and seeded random values (deterministic replays)
    deterministic: z.object({ epochMs: z.number().int().nonnegative(), seed: z.number().int().nonnegative() }).strict().optional(),
  })
  .strict();
export type BootFrame = z.infer<typeof BootFrameSchema>;

export type ReplyFrame = { type: 'reply'; id: number; ok: true; value: unknown } | { type: 'reply'; id: number; ok: false; message: string };

export const ReplyFrameSchema = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('reply'), id: z.number().int().positive(), ok: z.literal(true), value: z.unknown() }).strict(),
  z.object({ type: z.literal('reply'), id: z.number().int().positive(), ok: z.literal(false), message: z.string() }).strict(),
]);

const LocationWire = z.object({ line: z.number().int().positive(), column: z.number().int().positive().optional() }).strict();

// The child may only report failures it can observe itself; timeouts, aborts and deaths are host observations.
export const ChildFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }).strict(),
  // `open`: an unterminated line the program flushed; the stream's next log text continues the same entry
  z.object({ type: z.literal('log'), stream: z.enum(['stdout', 'stderr']), text: z.string(), open: z.literal(true).optional() }).strict(),
  z.object({ type: z.literal('call'), id: z.number().int().positive(), global: z.string(), name: z.string(), args: z.unknown() }).strict(),
  z
    .object({
      type: z.literal('done'),
      value: z.unknown().optional(),
      error: z
        .object({ kind: z.enum(['exception', 'invalid-output', 'output-limit']), message: z.string(), location: LocationWire.optional() })
        .strict()
        .optional(),
    })
    .strict()
    .refine((f) => !(f.error !== undefined && 'value' in f), { message: 'done carries both a value and an error' }),
]);
export type ChildFrame = z.infer<typeof ChildFrameSchema>;
