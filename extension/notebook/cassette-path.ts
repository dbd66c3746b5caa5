import { cellCassettePath } from '../../runtime/index.js';
import fs from 'node:fs';
import * as vscode from 'vscode';
import { notebookPlace } from './locations.js';
import { cellRunMetadata } from './run-metadata.js';

// Where a cell's cassette lives (`.ptc/cassettes/<cell id>.json` next to the notebook); undefined off disk.
export function cassettePathOf(cell: vscode.NotebookCell): string | undefined {
  const workspaceFolder = vscode.workspace.getWorkspaceFolder(cell.notebook.uri)?.uri.fsPath;
  const place = notebookPlace({ scheme: cell.notebook.uri.scheme, fsPath: cell.notebook.uri.fsPath, workspaceFolder });
  if (place === undefined) return undefined;
  return cellCassettePath({ cell: cellRunMetadata(cell.metadata), cellIndex: cell.index, notebookDir: place.dir });
}

// Whether the cell's cassette file exists now.
export function hasCassette(cell: vscode.NotebookCell): boolean {
  const cassette = cassettePathOf(cell);
  return cassette !== undefined && fs.existsSync(cassette);
}
