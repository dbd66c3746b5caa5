import * as z from 'zod/mini';
import { ExpectationReportSchema } from '../../runtime/protocol/expectation-report.js';
import { RunResultSchema } from '../../runtime/protocol/run-result.js';
import { formatIssues } from './format-issues.js';

// The notebook output item mime; the renderer contribution lists exactly this type.
export const RESULT_MIME = 'application/vnd.ptc-playground.result+json';

// What the extension writes under RESULT_MIME: the result plus what the renderer needs to explain it.
export const ResultPayloadSchema = z.object({
  result: RunResultSchema,
  // the program text, for code frames around error.location
  program: z.optional(z.string()),
  language: z.enum(['typescript', 'python']),
  // the extension's stable id of the cell; enables re-run/record/replay/open-inspector
  cellId: z.optional(z.string().check(z.minLength(1))),
  // the deadline the run had, for the timeout explanation
  timeoutMs: z.optional(z.number().check(z.positive())),
  // how the run compared with the cell's expectation (cells that have one)
  expectation: z.optional(ExpectationReportSchema),
  // what was left out to keep the output within the per-cell output budget, in plain words
  note: z.optional(z.string()),
  // the cell's whole time as VS Code's cell status shows it: queue, bindings, process start-up and the program
  cellMs: z.optional(z.number().check(z.nonnegative())),
  // whether the cell had a cassette when the output was written (Replay starts disabled without one)
  hasCassette: z.optional(z.boolean()),
});
export type ResultPayload = z.infer<typeof ResultPayloadSchema>;

export type PayloadParse = { ok: true; payload: ResultPayload } | { ok: false; message: string };

// Validates an output item's JSON; failures name the offending paths.
export function parseResultPayload(data: unknown): PayloadParse {
  const parsed = ResultPayloadSchema.safeParse(data);
  if (!parsed.success) return { ok: false, message: formatIssues(parsed.error.issues) };
  return { ok: true, payload: parsed.data };
}
