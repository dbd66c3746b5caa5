import { z } from 'zod';
import { LOOP_MODES } from '../model/model-view.js';
import { summarize, type EvalRun, type EvalSummaryRow } from './run-eval.js';

// The run fields a summary is made of, as `ptc eval` writes them into eval.json (the rest is kept as it is).
const RunSchema = z.looseObject({
  index: z.int().nonnegative(),
  task: z.string(),
  model: z.string(),
  mode: z.enum(LOOP_MODES),
  sample: z.int().min(1),
  status: z.string(),
  passed: z.boolean(),
  turns: z.number().nonnegative(),
  programs: z.number().nonnegative(),
  tokensIn: z.number().nonnegative(),
  tokensOut: z.number().nonnegative(),
  tokensCached: z.number().nonnegative().default(0),
  latencyMs: z.number().nonnegative(),
  bindingCalls: z.number().nonnegative(),
  failures: z.array(z.string()),
  promptHash: z.string(),
  transcript: z.string().optional(),
});
const EvalFileSchema = z.looseObject({ runs: z.array(RunSchema) });

export type MergedRun = Omit<EvalRun, 'detail'> & { transcript?: string; source: string };
export type MergeOutcome = { ok: true; runs: MergedRun[]; rows: EvalSummaryRow[] } | { ok: false; message: string };

// Shards of one `ptc eval --shard i/n` plan, each an eval.json text, as the one run they split: runs in plan order,
// the table a single run would print. A run that two shards both hold, or a file that is not an eval.json, is refused.
export function mergeEvalFiles(files: readonly { label: string; text: string }[]): MergeOutcome {
  const runs: MergedRun[] = [];
  const seen = new Map<number, string>();
  for (const { label, text } of files) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, message: `${label} is not JSON` };
    }
    const parsed = EvalFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        message: `${label} is not a ptc eval result: ${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
      };
    }
    for (const run of parsed.data.runs) {
      const other = seen.get(run.index);
      if (other !== undefined)
        return {
          ok: false,
          message: `${label} and ${other} both hold run ${run.index} (${run.task} · ${run.model} · ${run.mode} · ${run.sample}): merge the shards of one plan, once each`,
        };
      seen.set(run.index, label);
      runs.push({ ...(run as unknown as Omit<EvalRun, 'detail'>), source: label });
    }
  }
  if (runs.length === 0) return { ok: false, message: 'the eval results hold no runs' };
  runs.sort((a, b) => a.index - b.index);
  return { ok: true, runs, rows: summarize(runs) };
}
