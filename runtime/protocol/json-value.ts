import { z } from 'zod';

// Lossless JSON: what crosses every boundary of a model program (arguments, replies, return values).
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

// Shape-only schema; losslessness (finite, no -0, depth) is checked iteratively in runtime/json.
export const JsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.null(),
    z.boolean(),
    z.number(),
    z.string(),
    z.array(JsonValueSchema),
    z.record(z.string(), JsonValueSchema),
  ]),
);
