import { z } from 'zod';
import { JsonValueSchema, type JsonValue } from '../protocol/json-value.js';

export const CASSETTE_VERSION = 1;

export const DeterministicSettingsSchema = z.object({ epochMs: z.number().int().nonnegative(), seed: z.number().int().nonnegative() }).strict();
export type DeterministicSettings = z.infer<typeof DeterministicSettingsSchema>;

// One recorded binding call; `pending` marks a call the recorded run never saw answered.
export const CassetteCallSchema = z
  .object({
    global: z.string(),
    name: z.string(),
    args: JsonValueSchema,
    ok: z.boolean(),
    value: z.optional(JsonValueSchema),
    message: z.string().optional(),
    pending: z.literal(true).optional(),
    // the value already violated the output schema when it was recorded
    schemaViolation: z.string().optional(),
    // a failure's details, set on the program's error again when replayed
    code: z.union([z.number(), z.string()]).optional(),
    data: z.optional(JsonValueSchema),
    // the progress the call reported, reported again when replayed
    progress: z.array(z.object({ progress: z.number(), total: z.number().optional(), message: z.string().optional() }).strict()).optional(),
    durationMs: z.number().nonnegative(),
  })
  .strict()
  .superRefine((call, ctx) => {
    if (call.pending === true) {
      if (call.ok || call.value !== undefined || call.message !== undefined)
        ctx.addIssue({ code: 'custom', message: 'a pending call has ok false and neither value nor message' });
    } else if (call.ok) {
      if (!('value' in call) || call.value === undefined) ctx.addIssue({ code: 'custom', message: 'ok is true but "value" is missing' });
      if (call.message !== undefined) ctx.addIssue({ code: 'custom', message: 'ok is true but a "message" is given' });
    } else {
      if (call.message === undefined) ctx.addIssue({ code: 'custom', message: 'ok is false but "message" is missing' });
      if (call.value !== undefined) ctx.addIssue({ code: 'custom', message: 'ok is false but a "value" is given' });
    }
    if (call.ok && (call.code !== undefined || call.data !== undefined)) ctx.addIssue({ code: 'custom', message: 'ok is true but "code" or "data" is given' });
  });
export type CassetteCall = z.infer<typeof CassetteCallSchema>;

export const CassetteSchema = z
  .object({
    version: z.literal(CASSETTE_VERSION),
    deterministic: DeterministicSettingsSchema.optional(),
    calls: z.array(CassetteCallSchema),
  })
  .strict();
export type Cassette = z.infer<typeof CassetteSchema>;

// The fixed key order of a cassette file, so re-recording the same run diffs only where something changed.
export function orderCall(call: CassetteCall): CassetteCall {
  const out: Record<string, JsonValue | undefined> = { global: call.global, name: call.name, args: call.args, ok: call.ok };
  if (call.pending === true) out.pending = true;
  else if (call.ok) out.value = call.value;
  else out.message = call.message;
  if (call.code !== undefined) out.code = call.code;
  if (call.data !== undefined) out.data = call.data;
  if (call.schemaViolation !== undefined) out.schemaViolation = call.schemaViolation;
  if (call.progress !== undefined) out.progress = call.progress.map((p) => ({ ...p }));
  out.durationMs = call.durationMs;
  return out as CassetteCall;
}

export function orderCassette(cassette: Cassette): Cassette {
  const out: Record<string, unknown> = { version: cassette.version };
  if (cassette.deterministic !== undefined) out.deterministic = { epochMs: cassette.deterministic.epochMs, seed: cassette.deterministic.seed };
  out.calls = cassette.calls.map(orderCall);
  return out as Cassette;
}
