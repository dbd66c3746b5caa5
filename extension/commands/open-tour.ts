import * as vscode from 'vscode';
import path from 'node:path';
import { cellCassetteFiles, CellIdSchema, parseNotebook } from '../../runtime/index.js';
import type { Logger } from '../log/logger.js';
import { exists } from './new-notebook.js';

// The tour as the VSIX ships it (.vscodeignore lists these): the notebook, its bindings and its cells' cassettes.
export const TOUR_NOTEBOOK = 'tour.ptcnb';
export const TOUR_BINDINGS = 'tour.bindings.ts';

export interface OpenTourOptions {
  log: Logger;
  // the extension's own folder, where the shipped examples are
  extension: vscode.Uri;
}

// The files the tour is made of, relative to its folder: every cassette a replayable cell of it names (a cell in
// `record` mode writes its own on its first run, so a stale copy is never handed out).
export async function tourFiles(source: vscode.Uri): Promise<string[][]> {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(source, TOUR_NOTEBOOK)));
  const parsed = parseNotebook(text);
  const files = [[TOUR_NOTEBOOK], [TOUR_BINDINGS]];
  if (!parsed.ok) return files;
  for (const [cellIndex, cell] of parsed.notebook.cells.entries()) {
    if (cell.kind !== 'code' || cell.metadata?.mode === 'record') continue;
    if (CellIdSchema.safeParse(cell.metadata?.cassette ?? cell.metadata?.id).data === undefined) continue;
    // the tour's own cassettes, `.ptc/cassettes/tour/<name>.json`, as segments under its folder
    const { own } = cellCassetteFiles({
      cell: cell.metadata,
      cellIndex,
      notebookDir: '.',
      notebookFile: TOUR_NOTEBOOK,
    });
    const segments = path.normalize(own).split(path.sep);
    if (await exists(vscode.Uri.joinPath(source, ...segments))) files.push(segments);
  }
  return files;
}

// `ptcPlayground.openTour [folder]`: writes the tour notebook, its bindings module and cassettes into a folder the
// person picks (the installed extension's own copy is read-only and not theirs to run in), then opens it. A folder
// that already holds a tour is opened as it is unless the person asks to replace it. Resolves to the notebook.
export async function openTour(options: OpenTourOptions, target?: unknown): Promise<vscode.Uri | undefined> {
  const { log } = options;
  const source = vscode.Uri.joinPath(options.extension, 'examples');
  let folder = target instanceof vscode.Uri ? target : undefined;
  if (folder === undefined) {
    const picked = await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Folder for the PTC Playground tour'),
      openLabel: vscode.l10n.t('Write the Tour Here'),
      canSelectFolders: true,
      canSelectFiles: false,
      canSelectMany: false,
      ...(vscode.workspace.workspaceFolders?.[0] === undefined
        ? {}
        : { defaultUri: vscode.workspace.workspaceFolders[0].uri }),
    });
    folder = picked?.[0];
  }
  if (folder === undefined) return undefined;
  const notebook = vscode.Uri.joinPath(folder, TOUR_NOTEBOOK);
  let files: string[][];
  try {
    files = await tourFiles(source);
  } catch (error) {
    log.error(`the tour is missing from the extension (${source.fsPath})`, error);
    void vscode.window.showErrorMessage(
      vscode.l10n.t('This installation of PTC Playground has no tour ({0}); reinstall the extension.', source.fsPath),
    );
    return undefined;
  }
  const present = [];
  for (const file of files) if (await exists(vscode.Uri.joinPath(folder, ...file))) present.push(file.join('/'));
  let write = present.length === 0;
  if (!write) {
    const replace = vscode.l10n.t('Replace');
    const open = vscode.l10n.t('Open Existing');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('{0} already holds {1}. Replace with a fresh copy of the tour?', folder.fsPath, present.join(', ')),
      { modal: true },
      replace,
      open,
    );
    if (answer === undefined) return undefined;
    write = answer === replace;
  }
  if (write) {
    for (const file of files) {
      await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, ...file.slice(0, -1)));
      await vscode.workspace.fs.copy(vscode.Uri.joinPath(source, ...file), vscode.Uri.joinPath(folder, ...file), {
        overwrite: true,
      });
    }
    log.info(`tour written to ${folder.fsPath} (${files.length} files)`);
  }
  const document = await vscode.workspace.openNotebookDocument(notebook);
  await vscode.window.showNotebookDocument(document);
  return notebook;
}
