import { z } from 'zod';
import { JsonValueSchema } from '../protocol/json-value.js';
import type { Language } from '../protocol/run-result.js';
import { CellIdSchema } from '../notebook/schema.js';

// How a final answer is judged: the whole answer, a part of it, a JSON subset, or a small JS predicate.
export const CheckSchema = z.union([
  z.strictObject({ exact: z.string() }),
  z.strictObject({ contains: z.string().min(1) }),
  z.strictObject({ json: JsonValueSchema }),
  z.strictObject({ predicate: z.string().min(1).max(20_000) }),
]);
export type Check = z.infer<typeof CheckSchema>;

// Model settings a task or the command line asks for; each provider sends the ones its API has.
export const ModelOptionsSchema = z.strictObject({
  maxTokens: z.int().min(1).max(1_000_000).optional(),
  temperature: z.number().min(0).max(2).optional(),
  seed: z.int().optional(),
  reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  thinkingBudget: z.int().min(1024).max(1_000_000).optional(),
  toolChoice: z.enum(['auto', 'required', 'none']).optional(),
});

// Options per model (VS Code settings): `"*"` for every model, then a key naming the model, more specific keys winning.
export const ModelOptionsTableSchema = z.record(z.string().min(1).max(200), ModelOptionsSchema);
export type ModelOptionsTable = z.infer<typeof ModelOptionsTableSchema>;

// The options a table gives one model, named by its label (`openai:gpt-4o@http://…`, `anthropic:claude-…`,
// `vscode-lm:copilot/gpt-4o`): `"*"`, then the bare model name (`gpt-4o`), the name with its vendor (`copilot/gpt-4o`),
// the label without its base URL, and the whole label.
export function modelOptionsFor(table: ModelOptionsTable, label: string): z.infer<typeof ModelOptionsSchema> {
  const withoutUrl = label.replace(/@.*$/, '');
  const name = withoutUrl.replace(/^[\w.-]+:/, '');
  const bare = name.replace(/^.*\//, '');
  const keys = ['*', bare, name, withoutUrl, label].filter((k, i, all) => all.indexOf(k) === i);
  return Object.assign({}, ...keys.map((k) => (Object.hasOwn(table, k) ? table[k] : {}))) as z.infer<
    typeof ModelOptionsSchema
  >;
}

export const EvalTaskSchema = z.strictObject({
  // names the task in reports, transcripts and (unless `cassette` says) the cassette file
  id: CellIdSchema,
  task: z.string().min(1).max(100_000),
  language: z.enum(['typescript', 'python']).optional(),
  check: CheckSchema,
  cassette: CellIdSchema.optional(),
  maxTurns: z.int().min(1).max(50).optional(),
  // over the command line's model options, for this task's runs
  options: ModelOptionsSchema.optional(),
});
export type EvalTask = z.infer<typeof EvalTaskSchema>;

export const TASK_LIMITS = { fileBytes: 16 * 1024 * 1024, tasks: 10_000 } as const;

export type TasksParse = { ok: true; tasks: EvalTask[] } | { ok: false; message: string };

// tasks.jsonl: one task object per line; blank lines and lines starting with `//` are skipped.
export function parseTasks(text: string, file: string): TasksParse {
  if (Buffer.byteLength(text) > TASK_LIMITS.fileBytes)
    return { ok: false, message: `${file} is larger than ${TASK_LIMITS.fileBytes} bytes` };
  const tasks: EvalTask[] = [];
  const ids = new Set<string>();
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('//')) continue;
    const at = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, message: `${at}: not a JSON object` };
    }
    const parsed = EvalTaskSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue === undefined || issue.path.length === 0 ? '' : ` "${issue.path.map(String).join('.')}"`;
      return { ok: false, message: `${at}:${where} ${issue?.message ?? 'invalid task'}` };
    }
    if (ids.has(parsed.data.id)) return { ok: false, message: `${at}: a second task with id "${parsed.data.id}"` };
    ids.add(parsed.data.id);
    tasks.push(parsed.data);
    if (tasks.length > TASK_LIMITS.tasks)
      return { ok: false, message: `${file} has more than ${TASK_LIMITS.tasks} tasks` };
  }
  if (tasks.length === 0) return { ok: false, message: `${file} has no tasks` };
  return { ok: true, tasks };
}

export function taskLanguage(task: EvalTask, fallback: Language): Language {
  return task.language ?? fallback;
}
