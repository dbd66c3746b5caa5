import { NOTEBOOK_FORMAT_VERSION, type NotebookCell, type NotebookFile } from '../notebook/schema.js';
import type { EvalRun, EvalSummaryRow } from './run-eval.js';

// The terminal table: one row per model and mode.
export function summaryTable(rows: readonly EvalSummaryRow[]): string {
  const header = [
    'model',
    'mode',
    'pass',
    'rate',
    'turns',
    'tokens in',
    'cached',
    'tokens out',
    'latency',
    'calls',
    'failures',
  ];
  const body = rows.map((r) => [
    r.model,
    r.mode,
    `${r.passed}/${r.runs}`,
    `${Math.round(r.passRate * 100)}%`,
    r.meanTurns.toFixed(2),
    String(r.tokensIn),
    String(r.tokensCached),
    String(r.tokensOut),
    `${r.meanLatencyMs} ms`,
    String(r.bindingCalls),
    failureText(r.failures),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd();
  return `${[line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n')}\n`;
}

export function failureText(failures: Record<string, number>): string {
  const entries = Object.entries(failures);
  return entries.length === 0 ? '-' : entries.map(([kind, n]) => `${kind}×${n}`).join(' ');
}

export function transcriptName(run: Pick<EvalRun, 'task' | 'model' | 'mode' | 'sample'>): string {
  return `${run.task}.${run.model.replace(/[^A-Za-z0-9._-]+/g, '_')}.${run.mode}.${run.sample}.jsonl`;
}

// The report as a notebook: the summary table, then each run with a link to its transcript and every program it
// ran as a code cell with its saved result (the notebook renderer draws it like any run).
export function reportNotebook(input: {
  rows: readonly EvalSummaryRow[];
  runs: readonly EvalRun[];
  bindings?: string;
  transcriptDir: string;
}): NotebookFile {
  const cells: NotebookCell[] = [];
  const table = [
    '| model | mode | pass | rate | turns | tokens in/out (cached) | latency | calls | failures |',
    '|---|---|---|---|---|---|---|---|---|',
    ...input.rows.map(
      (r) =>
        `| ${md(r.model)} | ${r.mode} | ${r.passed}/${r.runs} | ${Math.round(r.passRate * 100)}% | ${r.meanTurns.toFixed(2)} | ${r.tokensIn}/${r.tokensOut} (${r.tokensCached}) | ${r.meanLatencyMs} ms | ${r.bindingCalls} | ${md(failureText(r.failures))} |`,
    ),
  ];
  cells.push({ kind: 'markdown', source: `# ptc eval\n\n${table.join('\n')}\n` });
  let n = 0;
  for (const run of input.runs) {
    const link = `${input.transcriptDir}/${transcriptName(run)}`;
    const verdict = run.passed ? '✓ passed' : `✗ ${md(run.message ?? run.status)}`;
    const answer = run.answer === undefined ? '' : `\n\n> ${md(run.answer).split('\n').join('\n> ')}`;
    cells.push({
      kind: 'markdown',
      source: `## ${md(run.task)} · ${md(run.model)} · ${run.mode} · sample ${run.sample}\n\n${verdict} — ${run.turns} turn(s), ${run.tokensIn}/${run.tokensOut} tokens, ${run.latencyMs} ms, ${run.bindingCalls} binding call(s) — [transcript](${encodeURI(link)})${answer}\n`,
    });
    for (const program of run.detail.programs) {
      n++;
      cells.push({
        kind: 'code',
        language: program.language,
        source: program.source,
        metadata: { id: `run-${n}`, mode: 'mock' },
        ...(program.result === undefined ? {} : { outputs: [{ kind: 'result', result: program.result }] }),
      });
    }
  }
  return {
    version: NOTEBOOK_FORMAT_VERSION,
    metadata: input.bindings === undefined ? {} : { bindings: input.bindings },
    cells,
  };
}

function md(text: string): string {
  return text.replace(/[|<>\\`*_[\]]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}
