import { createRuntime } from '../create-runtime.js';
import { describeProblems } from '../notebook/parse.js';
import { runNotebookFile } from '../session/run-notebook.js';
import type { RunResult } from '../protocol/run-result.js';
import { type Comparison, compareWithTranscript } from './compare.js';
import { importedMetaOf } from './then-record.js';

export interface CellVerdict {
  index: number;
  cellId: string | undefined;
  // undefined: the cell has no transcript record to compare with (not imported, or the transcript has no result)
  comparison: Comparison | undefined;
  // the cell could not run at all (missing cassette, bad bindings)
  setupError?: string;
  // the cell carries "cannot be reproduced" marks, so a difference is expected
  marked: boolean;
  result?: RunResult;
}

export type VerifyOutcome = { ok: true; cells: CellVerdict[] } | { ok: false; message: string };

// Replays every code cell of an imported notebook (each cell's own plan: imported cells replay their cassettes)
// and compares each run with what the transcript recorded.
export async function verifyImportedNotebook(
  notebookPath: string,
  options: { signal?: AbortSignal } = {},
): Promise<VerifyOutcome> {
  const runtime = createRuntime({ spares: 1 });
  try {
    const run = await runNotebookFile({
      notebookPath,
      session: { runtimeFor: () => runtime },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    if (!run.ok)
      return {
        ok: false,
        message:
          run.problems === undefined ? run.message : `${run.message}\n${describeProblems(run.problems, notebookPath)}`,
      };
    const cells = run.cells.map((report): CellVerdict => {
      const meta = importedMetaOf(run.notebook.cells[report.index]?.metadata);
      const marked = (meta?.unreproducible?.length ?? 0) > 0;
      if (report.outcome.kind === 'setup-failed')
        return {
          index: report.index,
          cellId: report.cellId,
          comparison: undefined,
          setupError: report.outcome.message,
          marked,
        };
      const result = report.outcome.result;
      const comparison = meta?.then === undefined ? undefined : compareWithTranscript(meta.then, result);
      return { index: report.index, cellId: report.cellId, comparison, marked, result };
    });
    return { ok: true, cells };
  } finally {
    await runtime.dispose();
  }
}
