import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../constants.js';

function isCell(value: unknown): value is vscode.NotebookCell {
  return value !== null && typeof value === 'object' && 'notebook' in value && 'document' in value && 'index' in value;
}

// The cell a command acts on: a cell argument (menus, status bar), `{ notebook, cellId }` (renderer, tests), or the
// active notebook editor's selected cell.
export function targetCell(arg: unknown): vscode.NotebookCell | undefined {
  if (isCell(arg)) return arg;
  if (arg !== null && typeof arg === 'object' && 'cellId' in arg) {
    const { cellId, notebook } = arg as { cellId: unknown; notebook?: unknown };
    const uri =
      typeof notebook === 'string'
        ? notebook
        : notebook instanceof vscode.Uri
          ? notebook.toString()
          : vscode.window.activeNotebookEditor?.notebook.uri.toString();
    const doc = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri);
    return doc?.getCells().find((c) => c.metadata.id === cellId);
  }
  if (
    arg !== null &&
    typeof arg === 'object' &&
    'index' in arg &&
    typeof (arg as { index: unknown }).index === 'number'
  ) {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    return notebook?.cellAt((arg as { index: number }).index);
  }
  const editor = vscode.window.activeNotebookEditor;
  if (editor?.notebook.notebookType !== NOTEBOOK_TYPE) return undefined;
  // the notebook's own selection, never window.activeTextEditor: that stays on the cell last edited while ↑/↓ move the
  // selection in command mode, so a palette command would act on a cell the person left long ago (issue 29)
  const primary = editor.selection;
  const range = primary.isEmpty ? editor.selections.find((r) => !r.isEmpty) : primary;
  return range !== undefined && range.start < editor.notebook.cellCount
    ? editor.notebook.cellAt(range.start)
    : undefined;
}

// The notebook a command acts on: a URI or notebook argument, else the active ptc notebook.
export function targetNotebook(arg: unknown): vscode.NotebookDocument | undefined {
  if (arg instanceof vscode.Uri)
    return vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === arg.toString());
  if (arg !== null && typeof arg === 'object' && 'notebookType' in arg && 'uri' in arg)
    return arg as vscode.NotebookDocument;
  const notebook = vscode.window.activeNotebookEditor?.notebook;
  return notebook?.notebookType === NOTEBOOK_TYPE ? notebook : undefined;
}
