import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../log/logger.js';
import { targetCell, targetNotebook } from './target-cell.js';

const MODULE_EXTENSIONS = ['mjs', 'js', 'cjs', 'ts', 'mts', 'cts', 'json'];

// `ptcPlayground.setNotebookBindings [notebook] [file]`: picks the notebook's bindings module (a file dialog unless a
// file is given) and stores it in `metadata.bindings`, relative to the notebook so the pair moves together. Offered
// from the palette and from a cell that could not load its bindings. Resolves to the stored path.
export async function setNotebookBindings(log: Logger, arg?: unknown, file?: unknown): Promise<string | undefined> {
  const notebook = targetNotebook(arg) ?? targetCell(arg)?.notebook;
  if (notebook === undefined || notebook.uri.scheme !== 'file') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Open a PTC notebook stored on disk to choose its bindings.'),
    );
    return undefined;
  }
  const dir = path.dirname(notebook.uri.fsPath);
  let chosen = file instanceof vscode.Uri ? file : undefined;
  if (chosen === undefined) {
    const current: unknown = notebook.metadata.bindings;
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Bindings module for {0}', path.basename(notebook.uri.fsPath)),
      openLabel: vscode.l10n.t('Use as Bindings'),
      canSelectMany: false,
      defaultUri: vscode.Uri.file(
        typeof current === 'string' && current !== '' ? path.dirname(path.resolve(dir, current)) : dir,
      ),
      filters: { [vscode.l10n.t('Bindings modules')]: MODULE_EXTENSIONS },
    });
    chosen = picked?.[0];
  }
  if (chosen === undefined) return undefined;
  const relative = path.relative(dir, chosen.fsPath).split(path.sep).join('/');
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.updateNotebookMetadata({ ...notebook.metadata, bindings: relative })]);
  const applied = await vscode.workspace.applyEdit(edit);
  log.info(
    `${vscode.workspace.asRelativePath(notebook.uri)}: bindings ${applied ? `set to ${relative}` : 'could not be changed'}`,
  );
  return applied ? relative : undefined;
}
