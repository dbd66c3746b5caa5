import * as vscode from 'vscode';
import type { PtcNotebookController } from '../execution/controller.js';
import type { CommandOutcome } from './cell-commands.js';
import { targetCell, targetNotebook } from './target-cell.js';

// `ptcPlayground.stopCells [cell|notebook]` (Alt+Shift+S): stops the selected cell when it is queued or running, else
// every cell of the notebook that is. The built-in Stop Cell Execution acts only on the focused cell, so after ↓ away
// from a runaway cell it stops nothing; this one always stops what is running. Cancelling goes through VS Code's own
// command, so the cells end exactly as the ■ button ends them.
export async function stopCells(
  controller: PtcNotebookController,
  arg?: unknown,
): Promise<CommandOutcome & { stopped?: number }> {
  const cell = targetCell(arg);
  const notebook = cell?.notebook ?? targetNotebook(arg);
  if (notebook === undefined) return { ok: false, message: vscode.l10n.t('Open a PTC notebook first.') };
  const active = controller.activeCells(notebook);
  const chosen = cell !== undefined && active.includes(cell) ? [cell] : active;
  if (chosen.length === 0)
    return { ok: true, message: vscode.l10n.t('No cell of this notebook is running.'), stopped: 0 };
  await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
    ranges: chosen.map((c) => ({ start: c.index, end: c.index + 1 })),
    document: notebook.uri,
  });
  return { ok: true, stopped: chosen.length };
}
