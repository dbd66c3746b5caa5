import { z } from 'zod';
import { JsonValueSchema } from './json-value.js';

// The eight orthogonal ways a run can fail (reference §1.1–1.2); never merged.
export const FAILURE_KINDS = ['exception', 'timeout', 'abort', 'worker-exit', 'invalid-output', 'output-limit', 'protocol', 'sandbox-unavailable'] as const;
export const FailureKindSchema = z.enum(FAILURE_KINDS);
export type FailureKind = z.infer<typeof FailureKindSchema>;

export const LanguageSchema = z.enum(['typescript', 'python']);
export type Language = z.infer<typeof LanguageSchema>;

export const SourceLocationSchema = z.object({
  line: z.number().int().positive(),
  column: z.number().int().positive().optional(),
});
export type SourceLocation = z.infer<typeof SourceLocationSchema>;

export const RunFailureSchema = z.object({
  kind: FailureKindSchema,
  message: z.string(),
  location: SourceLocationSchema.optional(),
});
export type RunFailure = z.infer<typeof RunFailureSchema>;

export const CallRecordSchema = z.object({
  id: z.number().int().nonnegative(),
  global: z.string(),
  name: z.string(),
  args: JsonValueSchema,
  ok: z.boolean(),
  value: JsonValueSchema.optional(),
  message: z.string().optional(),
  startedAtMs: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
  // set when the answer came from a cassette rather than a handler
  replayed: z.boolean().optional(),
  // set when a handler result violated the declared output schema
  schemaViolation: z.string().optional(),
});
export type CallRecord = z.infer<typeof CallRecordSchema>;

export const SandboxReportSchema = z.object({
  network: z.enum(['denied', 'allowed']),
  filesystem: z.enum(['denied', 'read-only', 'allowed']),
  childProcess: z.enum(['denied', 'allowed']),
  enforcement: z.enum(['full', 'partial', 'none']),
  mechanisms: z.array(z.string()),
  // what is not confined and why (with the package to install), when enforcement is not 'full'
  missing: z.array(z.string()).optional(),
});
export type SandboxReport = z.infer<typeof SandboxReportSchema>;

export const ReplayReportSchema = z.object({
  matched: z.number().int().nonnegative(),
  diverged: z.array(z.object({ global: z.string(), name: z.string(), args: JsonValueSchema })),
  unused: z.number().int().nonnegative(),
});
export type ReplayReport = z.infer<typeof ReplayReportSchema>;

// The one result shape: what the CLI prints and the notebook renders.
export const RunResultSchema = z.object({
  language: LanguageSchema,
  value: JsonValueSchema.optional(),
  logs: z.array(z.string()),
  // indices into logs of entries that came from stderr (console.error/warn, sys.stderr); omitted when none
  stderrLogs: z.array(z.number().int().nonnegative()).optional(),
  error: RunFailureSchema.optional(),
  calls: z.array(CallRecordSchema),
  sandbox: SandboxReportSchema,
  durationMs: z.number().nonnegative(),
  replay: ReplayReportSchema.optional(),
  // which handler set served the calls
  mode: z.enum(['mock', 'live', 'replay']).optional(),
});
export type RunResult = z.infer<typeof RunResultSchema>;
