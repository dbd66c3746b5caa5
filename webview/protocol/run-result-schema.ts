import * as z from 'zod/mini';
import type { FailureKind, RunResult } from '../../runtime/protocol/run-result.js';
import { FastJsonValueSchema } from './json-value-check.js';

// A zod/mini mirror of runtime/protocol/run-result.ts: the classic-zod original would add ~450 KiB to the
// renderer bundle, and its recursive JSON schema overflows on 5 000-deep values. Drift is caught twice:
// the type equality below (tsc) and test/webview/protocol/run-result-schema.test.ts (same verdicts on fixtures).

export const WEBVIEW_FAILURE_KINDS = [
  'exception',
  'timeout',
  'abort',
  'worker-exit',
  'invalid-output',
  'output-limit',
  'protocol',
  'sandbox-unavailable',
] as const;

const count = (): z.ZodMiniNumber<number> => z.int().check(z.nonnegative());
const ms = (): z.ZodMiniNumber<number> => z.number().check(z.nonnegative());

export const SourceLocationSchema = z.object({
  line: z.int().check(z.positive()),
  column: z.optional(z.int().check(z.positive())),
});

export const CallRecordSchema = z.object({
  id: count(),
  global: z.string(),
  name: z.string(),
  args: FastJsonValueSchema,
  ok: z.boolean(),
  value: z.optional(FastJsonValueSchema),
  message: z.optional(z.string()),
  startedAtMs: ms(),
  durationMs: ms(),
  replayed: z.optional(z.boolean()),
  schemaViolation: z.optional(z.string()),
});

const BindingCallCountSchema = z.object({ global: z.string(), name: z.string(), calls: count(), ok: count(), failed: count() });

export const WebviewRunResultSchema = z.object({
  language: z.enum(['typescript', 'python']),
  value: z.optional(FastJsonValueSchema),
  logs: z.array(z.string()),
  stderrLogs: z.optional(z.array(count())),
  error: z.optional(
    z.object({
      kind: z.enum(WEBVIEW_FAILURE_KINDS),
      message: z.string(),
      location: z.optional(SourceLocationSchema),
    }),
  ),
  calls: z.array(CallRecordSchema),
  callSummary: z.optional(z.object({ total: count(), omitted: count(), byBinding: z.array(BindingCallCountSchema), last: z.array(CallRecordSchema) })),
  sandbox: z.object({
    network: z.enum(['denied', 'allowed']),
    filesystem: z.enum(['denied', 'read-only', 'allowed']),
    childProcess: z.enum(['denied', 'allowed']),
    enforcement: z.enum(['full', 'partial', 'none']),
    mechanisms: z.array(z.string()),
  }),
  durationMs: ms(),
  replay: z.optional(
    z.object({
      matched: count(),
      diverged: z.array(z.object({ global: z.string(), name: z.string(), args: FastJsonValueSchema })),
      divergedTotal: z.optional(count()),
      unused: count(),
    }),
  ),
  mode: z.optional(z.enum(['mock', 'live', 'replay'])),
});

// --- compile-time drift check against the runtime's types (keys compared too: an optional key missing on one side
// would still be assignable both ways)
type Mirror = z.infer<typeof WebviewRunResultSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameResult: Same<Mirror, RunResult> = true;
const sameKeys: Same<keyof Mirror, keyof RunResult> = true;
const sameSummaryKeys: Same<keyof NonNullable<Mirror['callSummary']>, keyof NonNullable<RunResult['callSummary']>> = true;
const sameKinds: Same<(typeof WEBVIEW_FAILURE_KINDS)[number], FailureKind> = true;
export const MIRROR_CHECKS = [sameResult, sameKeys, sameSummaryKeys, sameKinds] as const;
