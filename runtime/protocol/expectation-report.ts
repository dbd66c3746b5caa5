import * as z from 'zod/mini';

// How a run compared with its cell's expectation (runtime/testing/check.ts). Browser-safe: the renderer shows it.

export const EXPECT_FIELDS = ['value', 'logs', 'error', 'calls'] as const;
export const ExpectFieldSchema = z.enum(EXPECT_FIELDS);
export type ExpectField = z.infer<typeof ExpectFieldSchema>;

export const MatchModeSchema = z.enum(['exact', 'shape', 'ignore']);
export type MatchMode = z.infer<typeof MatchModeSchema>;

const shortText = (): z.ZodMiniString<string> => z.string().check(z.maxLength(4_000));

// The first place one field differs: where (a JSON path into the field), what was expected there and what came.
export const FieldMismatchSchema = z.object({
  field: ExpectFieldSchema,
  match: z.enum(['exact', 'shape']),
  // `$` is the field itself, e.g. `$.cities[2].population` or `$[1].args.q`
  path: shortText(),
  reason: shortText(),
  expected: shortText(),
  actual: shortText(),
});
export type FieldMismatch = z.infer<typeof FieldMismatchSchema>;

export const ExpectationReportSchema = z.object({
  ok: z.boolean(),
  // every field that was compared (not ignored), with its mode
  checked: z.array(z.object({ field: ExpectFieldSchema, match: z.enum(['exact', 'shape']) })),
  // at most one per field: the first difference
  mismatches: z.array(FieldMismatchSchema),
  // masked paths that were left out of the comparison, per field (for the explanation)
  masked: z.optional(z.array(z.object({ field: ExpectFieldSchema, paths: z.array(shortText()) }))),
});
export type ExpectationReport = z.infer<typeof ExpectationReportSchema>;
