import { z } from 'zod';
import { ErrorClassSchema } from '../protocol/binding-call.js';
import { JsonValueSchema } from '../protocol/json-value.js';
import { FailureKindSchema, LanguageSchema } from '../protocol/run-result.js';

// The PTC Playground trace: JSON Lines any harness can write (`ptc run --trace` does), one record per line.
// The full description is docs/import.md; `ptc import` reads it back into a notebook.
export const TRACE_VERSION = 1;

const Id = z.union([z.string().min(1).max(200), z.number().int().nonnegative()]);
const JsonObjectSchema = z.custom<Record<string, z.infer<typeof JsonValueSchema>>>(
  (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && JsonValueSchema.safeParse(v).success,
  { message: 'expected a JSON Schema object' },
);

export const TraceHeaderSchema = z.strictObject({
  type: z.literal('ptc-trace'),
  version: z.literal(TRACE_VERSION),
  // who wrote the trace, e.g. "ptc 0.1.0" or "my-harness 2.3"
  producer: z.string().max(200).optional(),
});

export const TraceFunctionSchema = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.string().optional(),
  input: JsonObjectSchema.optional(),
  output: JsonObjectSchema.optional(),
});

export const TraceBindingsSchema = z.strictObject({
  type: z.literal('bindings'),
  namespaces: z.array(
    z.strictObject({
      global: z.string().min(1).max(200),
      // the error class (binding-call.ts) with names a generated SDK can declare
      errorClass: z
        .strictObject({ ...ErrorClassSchema.shape, name: z.string().min(1), memberNameProperty: z.string().min(1) })
        .optional(),
      functions: z.array(TraceFunctionSchema),
    }),
  ),
});

// the task or user message the following programs answer
export const TraceMessageSchema = z.strictObject({
  type: z.literal('message'),
  role: z.enum(['user', 'system', 'assistant']),
  text: z.string(),
});

export const TraceProgramSchema = z.strictObject({
  type: z.literal('program'),
  id: Id,
  language: LanguageSchema,
  source: z.string(),
  model: z.string().max(200).optional(),
  // ISO time the run started
  startedAt: z.string().max(64).optional(),
  description: z.string().optional(),
});

export const TraceCallSchema = z
  .strictObject({
    type: z.literal('call'),
    program: Id,
    // the call's id within its program (issue order)
    id: z.number().int().nonnegative(),
    global: z.string().min(1).max(200),
    name: z.string().min(1).max(200),
    args: JsonValueSchema,
    ok: z.boolean(),
    value: z.optional(JsonValueSchema),
    message: z.string().optional(),
    // true: the run ended before the call was answered
    pending: z.literal(true).optional(),
    startedAtMs: z.number().nonnegative().optional(),
    durationMs: z.number().nonnegative().optional(),
  })
  .superRefine((call, ctx) => {
    if (call.pending === true) {
      if (call.ok || call.value !== undefined || call.message !== undefined)
        ctx.addIssue({ code: 'custom', message: 'a pending call has ok false and neither value nor message' });
    } else if (call.ok && call.value === undefined)
      ctx.addIssue({ code: 'custom', path: ['value'], message: 'ok is true but "value" is missing' });
    else if (!call.ok && call.message === undefined)
      ctx.addIssue({ code: 'custom', path: ['message'], message: 'ok is false but "message" is missing' });
  });

export const TraceResultSchema = z.strictObject({
  type: z.literal('result'),
  program: Id,
  logs: z.array(z.string()),
  stderrLogs: z.array(z.number().int().nonnegative()).optional(),
  value: z.optional(JsonValueSchema),
  error: z.strictObject({ kind: FailureKindSchema, message: z.string() }).optional(),
  // calls the run made that the trace does not list (a runtime that keeps a bounded call log counts them only)
  callsOmitted: z.number().int().positive().optional(),
  durationMs: z.number().nonnegative().optional(),
});

export const TraceRecordSchema = z.discriminatedUnion('type', [
  TraceHeaderSchema,
  TraceBindingsSchema,
  TraceMessageSchema,
  TraceProgramSchema,
  TraceCallSchema,
  TraceResultSchema,
]);
export type TraceRecord = z.infer<typeof TraceRecordSchema>;
export type TraceCall = z.infer<typeof TraceCallSchema>;
