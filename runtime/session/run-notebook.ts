import path from 'node:path';
import type { LogEntry } from '../api.js';
import { readTextFile } from '../files/read-text.js';
import type { SessionOutcome, RunLimits } from './session-types.js';
import { cellRunRequest, openNotebookSession, type NotebookSessionSettings } from './notebook-session.js';
import type { Language } from '../protocol/run-result.js';
import { type NotebookProblem, parseNotebook } from '../notebook/parse.js';
import type { PlanMode, PlanOverride } from './plan.js';
import type { CodeCell, NotebookFile } from '../notebook/schema.js';

export interface NotebookRunOptions {
  notebookPath: string;
  // the notebook's session is opened with these once its bindings module is known, and disposed at the end
  session?: NotebookSessionSettings;
  override?: PlanOverride;
  limits?: RunLimits;
  signal?: AbortSignal;
  onCellStart?: (index: number, cell: CodeCell) => void;
  onLog?: (index: number, entry: LogEntry) => void;
  // schema drift, unused recorded calls, handler warnings (never part of a cell's output)
  onWarning?: (index: number, message: string) => void;
}

export interface CellReport {
  // position of the cell in the notebook (0-based, markdown cells included)
  index: number;
  language: Language;
  cellId: string | undefined;
  plan: PlanMode;
  program: string;
  outcome: SessionOutcome;
}

export type NotebookRun =
  | { ok: true; notebook: NotebookFile; cells: CellReport[]; stopped: boolean }
  | { ok: false; stage: 'read' | 'parse' | 'bindings'; message: string; problems?: NotebookProblem[] };

// Runs every code cell in order, one at a time, in one session (one bindings host: its MCP servers serve every cell),
// the same session code path as the extension's.
export async function runNotebookFile(options: NotebookRunOptions): Promise<NotebookRun> {
  const file = path.resolve(options.notebookPath);
  const read = await readTextFile(file);
  if (!read.ok)
    return { ok: false, stage: 'read', message: `cannot read notebook ${options.notebookPath}: ${read.reason}` };
  const parsed = parseNotebook(read.text);
  if (!parsed.ok)
    return {
      ok: false,
      stage: 'parse',
      message: `${options.notebookPath} is not a readable notebook`,
      problems: parsed.problems,
    };
  const notebook = parsed.notebook;
  const notebookDir = path.dirname(file);
  const session = openNotebookSession({
    ...options.session,
    notebookDir,
    metadataBindings: notebook.metadata?.bindings,
  });
  try {
    const cells: CellReport[] = [];
    let stopped = false;
    for (const [index, cell] of notebook.cells.entries()) {
      if (cell.kind !== 'code') continue;
      if (options.signal?.aborted === true) {
        stopped = true;
        break;
      }
      const { onLog, onWarning } = options;
      const request = cellRunRequest({
        language: cell.language,
        program: cell.source,
        cellIndex: index,
        cell: cell.metadata,
        notebook: notebook.metadata,
        notebookDir,
        notebookFile: file,
        ...(options.override === undefined ? {} : { override: options.override }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(onLog === undefined ? {} : { onLog: (entry: LogEntry) => onLog(index, entry) }),
        ...(onWarning === undefined ? {} : { onWarning: (message: string) => onWarning(index, message) }),
      });
      options.onCellStart?.(index, cell);
      const outcome = await session.run(request);
      if (outcome.kind === 'setup-failed' && outcome.stage === 'bindings') {
        // every later cell would fail the same way; report it once as the notebook's problem
        return { ok: false, stage: 'bindings', message: outcome.message };
      }
      cells.push({
        index,
        language: cell.language,
        cellId: cell.metadata?.id,
        plan: request.plan.mode,
        program: cell.source,
        outcome,
      });
    }
    return { ok: true, notebook, cells, stopped };
  } finally {
    await session.dispose();
  }
}
