import { z } from 'zod';
import { CassetteCallSchema, DeterministicSettingsSchema, type CassetteCall } from '../protocol/binding-call.js';
import type { JsonValue } from '../protocol/json-value.js';

export const CASSETTE_VERSION = 1;

// One recorded binding call: CassetteCallSchema (binding-call.ts, the one call vocabulary).
export const CassetteSchema = z
  .object({
    version: z.literal(CASSETTE_VERSION),
    deterministic: z.optional(DeterministicSettingsSchema),
    calls: z.array(CassetteCallSchema),
  })
  .strict();
export type Cassette = z.infer<typeof CassetteSchema>;

// The fixed key order of a cassette file, so re-recording the same run diffs only where something changed.
export function orderCall(call: CassetteCall): CassetteCall {
  const out: Record<string, JsonValue | undefined> = {
    global: call.global,
    name: call.name,
    args: call.args,
    ok: call.ok,
  };
  if (call.pending === true) out.pending = true;
  else if (call.ok) out.value = call.value;
  else out.message = call.message;
  if (call.code !== undefined) out.code = call.code;
  if (call.data !== undefined) out.data = call.data;
  if (call.schemaViolation !== undefined) out.schemaViolation = call.schemaViolation;
  if (call.progress !== undefined) out.progress = call.progress.map((p) => ({ ...p }));
  if (call.pause !== undefined) out.pause = { ...call.pause };
  out.durationMs = call.durationMs;
  return out as CassetteCall;
}

export function orderCassette(cassette: Cassette): Cassette {
  const out: Record<string, unknown> = { version: cassette.version };
  if (cassette.deterministic !== undefined)
    out.deterministic = { epochMs: cassette.deterministic.epochMs, seed: cassette.deterministic.seed };
  out.calls = cassette.calls.map(orderCall);
  return out as Cassette;
}
