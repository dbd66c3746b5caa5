import * as vscode from 'vscode';
import { recordCell, replayCell } from '../commands/cell-commands.js';
import { openInspector } from '../commands/register-commands.js';
import type { PtcNotebookController } from '../execution/controller.js';
import type { InspectorPanels } from '../inspector/inspector-panel.js';
import type { Logger } from '../log/logger.js';
import type { RendererActionMessage, RendererActionOutcome } from './renderer-host.js';
import { acceptExpected } from '../testing/accept-expected.js';

export interface RendererActionDeps {
  controller: PtcNotebookController;
  inspector: InspectorPanels;
  log: Logger;
  // tells the editor's renderers whether the cell has a cassette and runs
  postCellState: (cell: vscode.NotebookCell) => void;
}

// The cell a renderer message is about: by cell id, else (open-inspector) by the output it was drawn in.
function cellFor(message: RendererActionMessage, notebook: vscode.NotebookDocument): vscode.NotebookCell | undefined {
  const cells = notebook.getCells();
  if (message.cellId !== undefined) return cells.find((c) => c.metadata.id === message.cellId);
  // outputs carry their id at run time although the 1.95 typings do not declare it
  if (message.type === 'open-inspector')
    return cells.find((c) => c.outputs.some((o) => (o as { id?: unknown }).id === message.outputId));
  return undefined;
}

// Carries out what a rendered result's buttons ask for.
export async function rendererAction(
  deps: RendererActionDeps,
  message: RendererActionMessage,
  notebook: vscode.NotebookDocument,
): Promise<RendererActionOutcome> {
  const cell = cellFor(message, notebook);
  if (cell === undefined) return { ok: false, message: vscode.l10n.t('That cell is no longer in the notebook.') };
  switch (message.type) {
    case 'open-inspector':
      return openInspector(deps.inspector, cell);
    case 'rerun':
      await vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: cell.index, end: cell.index + 1 }],
        document: notebook.uri,
      });
      return { ok: true };
    case 'record':
      return recordCell(deps.controller, deps.log, cell);
    case 'replay':
      return replayCell(deps.controller, cell);
    case 'accept':
      return acceptExpected(deps.controller, deps.log, cell);
    case 'cell-state-request':
      deps.postCellState(cell);
      return { ok: true };
  }
}
