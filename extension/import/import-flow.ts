import path from 'node:path';
import {
  FORMAT_TITLES,
  type ImportProblem,
  planImport,
  type TranscriptFormat,
  writeImportPlan,
} from '../../runtime/index.js';

export interface ImportRequest {
  files: readonly string[];
  out: string;
  format?: TranscriptFormat;
  force?: boolean;
}

// What one import attempt came to; the command turns each kind into the right question or message.
export type ImportFlowOutcome =
  | { kind: 'imported'; notebookPath: string; cells: number; marked: number; summary: string; warnings: string[] }
  | { kind: 'exists'; existing: string[] }
  | { kind: 'unknown-format'; message: string }
  | { kind: 'bad-transcript'; message: string; problem: ImportProblem }
  | { kind: 'write-failed'; message: string };

// The Import Transcript… command without its dialogs: plan in memory, write all or nothing, summarise.
export async function runImport(request: ImportRequest): Promise<ImportFlowOutcome> {
  const planned = await planImport({
    files: request.files,
    out: request.out,
    ...(request.format === undefined ? {} : { format: request.format }),
  });
  if (!planned.ok) {
    if (planned.problem.code === 'unknown-format') return { kind: 'unknown-format', message: planned.message };
    return { kind: 'bad-transcript', message: planned.message, problem: planned.problem };
  }
  const plan = planned.plan;
  const written = await writeImportPlan(plan, { force: request.force === true });
  if (!written.ok)
    return written.reason === 'exists'
      ? { kind: 'exists', existing: written.existing }
      : { kind: 'write-failed', message: written.message };
  const code = plan.cells.filter((c) => c.kind === 'code').length;
  const marked = plan.cells.filter((c) => c.unreproducible.length > 0).length;
  const sources = plan.sources.map((s) => `${path.basename(s.file)} (${FORMAT_TITLES[s.format]})`).join(', ');
  const parts = [`Imported ${plan.cells.length} program(s) from ${sources}: ${code} replayable cell(s)`];
  if (marked > 0) parts.push(`${marked} marked as not reproducible as recorded`);
  if (plan.redactions > 0) parts.push(`${plan.redactions} secret(s) redacted`);
  return {
    kind: 'imported',
    notebookPath: plan.notebookPath,
    cells: plan.cells.length,
    marked,
    summary: `${parts.join('; ')}.`,
    warnings: plan.warnings,
  };
}

// Where a transcript's notebook goes unless the user says otherwise: next to it, named after it.
export function defaultNotebookPath(transcript: string): string {
  return path.join(
    path.dirname(transcript),
    `${path.basename(transcript).replace(/\.(jsonl|ndjson|json|har)$/i, '')}.ptcnb`,
  );
}
