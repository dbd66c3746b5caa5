import fs from 'node:fs/promises';
import path from 'node:path';
import type { LogEntry } from '../api.js';
import type { Session, SessionOutcome, RunLimits } from '../session/session-types.js';
import type { Language } from '../protocol/run-result.js';
import { type NotebookProblem, parseNotebook } from './parse.js';
import { type PlanMode, type PlanOverride, resolvePlan } from './plan.js';
import type { CodeCell, NotebookFile } from './schema.js';
import { cellLimits } from './cell-limits.js';

export interface NotebookRunOptions {
  notebookPath: string;
  // opens the notebook's session once its bindings module is known; the run disposes it at the end
  openSession: (options: { bindingsPath: string | undefined; notebookDir: string }) => Session;
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

// Where a notebook's `metadata.bindings` points, resolved against the notebook's folder.
export function bindingsPathOf(notebook: NotebookFile, notebookDir: string): string | undefined {
  const relative = notebook.metadata?.bindings;
  return relative === undefined ? undefined : path.resolve(notebookDir, relative);
}

// Runs every code cell in order, one at a time, in one session (one bindings host: its MCP servers serve every cell),
// the same session code path as the extension's.
export async function runNotebookFile(options: NotebookRunOptions): Promise<NotebookRun> {
  const file = path.resolve(options.notebookPath);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, stage: 'read', message: `cannot read notebook ${options.notebookPath}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
  }
  const parsed = parseNotebook(text);
  if (!parsed.ok) return { ok: false, stage: 'parse', message: `${options.notebookPath} is not a readable notebook`, problems: parsed.problems };
  const notebook = parsed.notebook;
  const notebookDir = path.dirname(file);
  const session = options.openSession({ bindingsPath: bindingsPathOf(notebook, notebookDir), notebookDir });
  try {
    const cells: CellReport[] = [];
    let stopped = false;
    for (const [index, cell] of notebook.cells.entries()) {
      if (cell.kind !== 'code') continue;
      if (options.signal?.aborted === true) {
        stopped = true;
        break;
      }
      const plan = resolvePlan({
        notebook: notebook.metadata,
        cell: cell.metadata,
        cellIndex: index,
        notebookDir,
        ...(options.override === undefined ? {} : { override: options.override }),
      });
      options.onCellStart?.(index, cell);
      const { onLog, onWarning } = options;
      const outcome = await session.run({
        language: cell.language,
        program: cell.source,
        plan,
        limits: cellLimits(options.limits ?? {}, cell.metadata),
        cwd: notebookDir,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(onLog === undefined ? {} : { onLog: (entry: LogEntry) => onLog(index, entry) }),
        ...(onWarning === undefined ? {} : { onWarning: (message: string) => onWarning(index, message) }),
      });
      if (outcome.kind === 'setup-failed' && outcome.stage === 'bindings') {
        // every later cell would fail the same way; report it once as the notebook's problem
        return { ok: false, stage: 'bindings', message: outcome.message };
      }
      cells.push({ index, language: cell.language, cellId: cell.metadata?.id, plan: plan.mode, program: cell.source, outcome });
    }
    return { ok: true, notebook, cells, stopped };
  } finally {
    await session.dispose();
  }
}
