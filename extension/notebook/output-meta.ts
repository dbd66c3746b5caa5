import { z } from 'zod';

// What each of our outputs says about itself in `NotebookCellOutput.metadata.ptc` (status bar, save, commands).
export const OutputMetaSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    durationMs: z.number(),
    cellMs: z.number().optional(),
    callCount: z.number().int(),
    failureKind: z.string().optional(),
    mode: z.enum(['mock', 'live', 'replay']).optional(),
    replay: z.object({ matched: z.number().int(), diverged: z.number().int(), unused: z.number().int() }).optional(),
    cassette: z.string().optional(),
    // the cell has an expectation and the run met it (or not)
    expectation: z.enum(['passed', 'failed']).optional(),
  }),
  // a cell that could not run; `persist` says whether the message is saved with the notebook
  z.object({ kind: z.literal('problem'), message: z.string(), persist: z.boolean() }),
  // live log lines while the cell runs; replaced by the result
  z.object({ kind: z.literal('stream') }),
]);
export type OutputMeta = z.infer<typeof OutputMetaSchema>;

// Reads our marker from an output's metadata; other extensions' outputs have none.
export function outputMetaOf(metadata: unknown): OutputMeta | undefined {
  if (metadata === null || typeof metadata !== 'object') return undefined;
  const parsed = OutputMetaSchema.safeParse((metadata as { ptc?: unknown }).ptc);
  return parsed.success ? parsed.data : undefined;
}

// The marker of the cell's latest result (commands, the status bar and the walkthrough read what the last run did).
export function latestResultMeta(
  outputs: readonly { metadata?: unknown }[],
): Extract<OutputMeta, { kind: 'result' }> | undefined {
  for (let i = outputs.length - 1; i >= 0; i--) {
    const meta = outputMetaOf(outputs[i]?.metadata);
    if (meta?.kind === 'result') return meta;
  }
  return undefined;
}
