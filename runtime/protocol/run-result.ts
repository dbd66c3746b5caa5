import * as z from 'zod/mini';
import { CallRecordSchema } from './binding-call.js';
import { JsonValueSchema } from './json-value.js';

export {
  CallRecordSchema,
  ProgressMarkSchema,
  type CallRecord,
  type ProgressMark,
  type ProgressNote,
} from './binding-call.js';

// The one result shape: what the CLI prints, the notebook saves and the renderer shows. Browser-safe (zod/mini, no
// Node imports): the webview validates with these very schemas, so there is no mirror to drift.

// The orthogonal ways a run can fail (reference §1.1–1.2, plus the call budget); never merged.
export const FAILURE_KINDS = [
  'exception',
  'timeout',
  'abort',
  'worker-exit',
  'invalid-output',
  'output-limit',
  'protocol',
  'sandbox-unavailable',
  'call-limit',
] as const;
export const FailureKindSchema = z.enum(FAILURE_KINDS);
export type FailureKind = z.infer<typeof FailureKindSchema>;

export const LanguageSchema = z.enum(['typescript', 'python']);
export type Language = z.infer<typeof LanguageSchema>;

const count = (): z.ZodMiniNumber<number> => z.int().check(z.nonnegative());
const ms = (): z.ZodMiniNumber<number> => z.number().check(z.nonnegative());

export const SourceLocationSchema = z.object({
  line: z.int().check(z.positive()),
  column: z.optional(z.int().check(z.positive())),
});
export type SourceLocation = z.infer<typeof SourceLocationSchema>;

export const RunFailureSchema = z.object({
  kind: FailureKindSchema,
  message: z.string(),
  location: z.optional(SourceLocationSchema),
});
export type RunFailure = z.infer<typeof RunFailureSchema>;

// A call keeps its first and last few progress reports; `progressCount` counts them all.
export const KEPT_PROGRESS = 20;

// the binding calls' record: binding-call.ts (the one call vocabulary)

// How many calls a result keeps one by one (the first ones) and how many of the rest it keeps at the end; every other
// call is only counted, so 10^6 calls cost the host a bounded call log (see CallSummarySchema).
export const KEPT_CALLS = 1_000;
export const LAST_CALLS = 20;

export const BindingCallCountSchema = z.object({
  global: z.string(),
  name: z.string(),
  // calls made, answered with a value, failed (the rest were not answered before the run ended)
  calls: count(),
  ok: count(),
  failed: count(),
});
export type BindingCallCount = z.infer<typeof BindingCallCountSchema>;

// Present only when a run made more than KEPT_CALLS calls: `calls` then holds the first KEPT_CALLS.
export const CallSummarySchema = z.object({
  // every call of the run
  total: count(),
  // calls neither in `calls` nor in `last` (counted in `byBinding` only)
  omitted: count(),
  // per binding over the whole run, in order of first call
  byBinding: z.array(BindingCallCountSchema),
  // the last calls after the first KEPT_CALLS (at most LAST_CALLS), in issue order
  last: z.array(CallRecordSchema),
});
export type CallSummary = z.infer<typeof CallSummarySchema>;

export const SandboxReportSchema = z.object({
  network: z.enum(['denied', 'allowed']),
  filesystem: z.enum(['denied', 'read-only', 'allowed']),
  childProcess: z.enum(['denied', 'allowed']),
  enforcement: z.enum(['full', 'partial', 'none']),
  mechanisms: z.array(z.string()),
  // what is not confined and why (with the package to install), when enforcement is not 'full'
  missing: z.optional(z.array(z.string())),
  // the engine that ran the program and what isolates it: the OS sandbox around a native child (node, cpython) or
  // WebAssembly (quickjs, pyodide; inside a child of its own, under the OS sandbox too where there is one)
  engine: z.optional(z.enum(['node', 'cpython', 'quickjs', 'pyodide'])),
  isolation: z.optional(z.enum(['os', 'wasm', 'none'])),
  // `engine: auto` chose WebAssembly: why, and how to get the native sandbox (said once by front ends)
  notice: z.optional(z.string()),
});
export type SandboxReport = z.infer<typeof SandboxReportSchema>;

export const ReplayReportSchema = z.object({
  matched: count(),
  // the calls no recorded call matched: the first KEPT_CALLS of them; divergedTotal counts all when there are more
  diverged: z.array(z.object({ global: z.string(), name: z.string(), args: JsonValueSchema })),
  divergedTotal: z.optional(count()),
  unused: count(),
});
export type ReplayReport = z.infer<typeof ReplayReportSchema>;

export const RunResultSchema = z.object({
  language: LanguageSchema,
  value: z.optional(JsonValueSchema),
  logs: z.array(z.string()),
  // indices into logs of entries that came from stderr (console.error/warn, sys.stderr); omitted when none
  stderrLogs: z.optional(z.array(count())),
  error: z.optional(RunFailureSchema),
  // the binding calls in issue order: all of them, or the first KEPT_CALLS when `callSummary` is present
  calls: z.array(CallRecordSchema),
  callSummary: z.optional(CallSummarySchema),
  sandbox: SandboxReportSchema,
  durationMs: ms(),
  // of durationMs, the process start-up before the program was handed over (a spare process makes it near 0);
  // calls' startedAtMs are on the same axis
  startupMs: z.optional(ms()),
  replay: z.optional(ReplayReportSchema),
  // of durationMs, the time calls were paused for a decision (the program's deadline did not count it)
  pausedMs: z.optional(ms()),
  // which handler set served the calls
  mode: z.optional(z.enum(['mock', 'live', 'replay'])),
  // false when the run ended before any process started (syntax error, abort while queued, sandbox refused): its
  // sandbox report is then what would have been enforced, not what was
  started: z.optional(z.literal(false)),
});
export type RunResult = z.infer<typeof RunResultSchema>;

// How many binding calls a run made (`calls` may hold only the first ones).
export function callCount(result: Pick<RunResult, 'calls' | 'callSummary'>): number {
  return result.callSummary?.total ?? result.calls.length;
}
