import { z } from 'zod';
import { JsonValueSchema } from '../protocol/json-value.js';
import { FailureKindSchema } from '../protocol/run-result.js';
import { parseMaskPath } from '../json/mask-path.js';

// A code cell's expectation of its run, stored as `metadata.expect` (see docs/testing.md). Each field is compared
// `exact`ly, by `shape` (types and keys, not values) or `ignore`d; a field left out is ignored.

const MatchSchema = z.enum(['exact', 'shape', 'ignore']);

const MaskListSchema = z
  .array(
    z.string().superRefine((text, ctx) => {
      const parsed = parseMaskPath(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
    }),
  )
  .max(200);

export const ExpectedCallSchema = z.strictObject({
  // `global.name`, e.g. `tools.lookupCity`
  call: z.string().min(3),
  args: JsonValueSchema,
});
export type ExpectedCall = z.infer<typeof ExpectedCallSchema>;

export const ExpectedErrorSchema = z.strictObject({
  kind: FailureKindSchema,
  // compared only when given (and only in `exact` mode)
  message: z.string().optional(),
});

export const ExpectationSchema = z.strictObject({
  // `is` absent: the program returned nothing (TypeScript `undefined`)
  value: z
    .strictObject({ match: MatchSchema, is: z.optional(JsonValueSchema), mask: MaskListSchema.optional() })
    .optional(),
  logs: z
    .strictObject({ match: MatchSchema, is: z.array(z.string()).optional(), mask: MaskListSchema.optional() })
    .optional(),
  // `is: null`: the run must succeed
  error: z.strictObject({ match: MatchSchema, is: ExpectedErrorSchema.nullable().optional() }).optional(),
  calls: z
    .strictObject({ match: MatchSchema, is: z.array(ExpectedCallSchema).optional(), mask: MaskListSchema.optional() })
    .optional(),
  // the test is listed but not run (true, or the reason)
  skip: z.union([z.literal(true), z.string().min(1)]).optional(),
});
export type Expectation = z.infer<typeof ExpectationSchema>;

// Fields in the order they are written and checked.
export const EXPECTATION_KEY_ORDER = ['value', 'logs', 'error', 'calls', 'skip'] as const;
