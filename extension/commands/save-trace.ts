import path from 'node:path';
import * as vscode from 'vscode';
import { writeRunTrace } from '../../runtime/index.js';
import type { SessionService } from '../bindings/session-service.js';
import type { Logger } from '../log/logger.js';
import { latestPayload } from '../notebook/cell-results.js';
import { type CommandOutcome, codeCell, noCell } from './cell-commands.js';
import { errorMessage } from '../../runtime/index.js';

export interface SaveTraceDeps {
  log: Logger;
  bindings: SessionService;
}

// `ptcPlayground.saveRunTrace [cell] [uri]`: the cell's latest run as a PTC trace (docs/import.md), the same JSON Lines
// `ptc run --trace` writes, so a run made here can be shared, diffed, or imported back as a replayable notebook. A
// target uri (scripts, tests) skips the save dialog. Says how it went, except for a cancelled dialog.
export async function saveRunTrace(
  deps: SaveTraceDeps,
  arg?: unknown,
  target?: unknown,
): Promise<CommandOutcome & { trace?: vscode.Uri }> {
  const outcome = await save(deps, arg, target);
  if (outcome.ok) void vscode.window.showInformationMessage(outcome.message ?? '');
  else if (!outcome.cancelled) void vscode.window.showWarningMessage(outcome.message);
  return outcome;
}

async function save(
  deps: SaveTraceDeps,
  arg: unknown,
  target: unknown,
): Promise<CommandOutcome & { trace?: vscode.Uri; cancelled?: true }> {
  const cell = codeCell(arg);
  if (cell === undefined) return noCell();
  const latest = latestPayload(cell);
  if (latest === undefined)
    return { ok: false, message: vscode.l10n.t('This cell has no result to save yet: run it first.') };
  const { result, language } = latest.payload;
  const id = latest.payload.cellId ?? `cell-${cell.index + 1}`;
  const uri = target instanceof vscode.Uri ? target : await pickTarget(cell, id);
  if (uri === undefined)
    return { ok: false, message: vscode.l10n.t('Saving the trace was cancelled.'), cancelled: true };
  if (uri.scheme !== 'file') return { ok: false, message: vscode.l10n.t('Traces are saved to files on this machine.') };
  // the module's descriptions and schemas make the trace importable with typed bindings; a broken module only costs
  // those
  const described = await deps.bindings.describe(cell.notebook);
  try {
    await writeRunTrace(uri.fsPath, {
      // the text that ran (kept with the result), not an edit made since
      program: latest.payload.program ?? cell.document.getText(),
      language,
      result,
      producer: 'PTC Playground',
      id,
      startedAt: new Date(Date.now() - result.durationMs).toISOString(),
      ...(described?.ok === true ? { module: described.module } : {}),
    });
  } catch (error) {
    deps.log.warn(`could not write the trace ${uri.fsPath}`, error);
    return {
      ok: false,
      message: vscode.l10n.t('Could not write {0}: {1}', uri.fsPath, errorMessage(error)),
    };
  }
  deps.log.info(`saved the run of ${id} as a trace: ${uri.fsPath}`);
  return {
    ok: true,
    message: vscode.l10n.t('Saved the run as a trace: {0}', vscode.workspace.asRelativePath(uri)),
    trace: uri,
  };
}

async function pickTarget(cell: vscode.NotebookCell, id: string): Promise<vscode.Uri | undefined> {
  const notebook = cell.notebook.uri;
  const base = path.basename(notebook.fsPath, '.ptcnb');
  const safeId = id.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
  return vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save the run as a PTC trace'),
    defaultUri: vscode.Uri.file(path.join(path.dirname(notebook.fsPath), `${base}-${safeId}.trace.jsonl`)),
    filters: { [vscode.l10n.t('PTC trace')]: ['jsonl'] },
  });
}
