import { cellCassetteFiles } from '../../runtime/index.js';
import fs from 'node:fs';
import * as vscode from 'vscode';
import { notebookPlace } from './locations.js';
import { cellRunMetadata } from './run-metadata.js';

// Where a cell's cassette is written (`.ptc/cassettes/<notebook>/<cell id>.json` next to the notebook); undefined off
// disk.
export function cassettePathOf(cell: vscode.NotebookCell): string | undefined {
  return cassetteLocation(cell)?.own;
}

// The cassette a replay of the cell reads now: its own, else the one the folder-wide layout before per-notebook
// folders left (`.ptc/cassettes/<cell id>.json`); undefined when there is none.
export function existingCassetteOf(cell: vscode.NotebookCell): string | undefined {
  const where = cassetteLocation(cell);
  if (where === undefined) return undefined;
  return [where.own, where.legacy].find((file) => fs.existsSync(file));
}

// Whether the cell has a cassette to replay now.
export function hasCassette(cell: vscode.NotebookCell): boolean {
  return existingCassetteOf(cell) !== undefined;
}

function cassetteLocation(cell: vscode.NotebookCell): { own: string; legacy: string } | undefined {
  const workspaceFolder = vscode.workspace.getWorkspaceFolder(cell.notebook.uri)?.uri.fsPath;
  const place = notebookPlace({ scheme: cell.notebook.uri.scheme, fsPath: cell.notebook.uri.fsPath, workspaceFolder });
  if (place === undefined) return undefined;
  return cellCassetteFiles({
    cell: cellRunMetadata(cell.metadata),
    cellIndex: cell.index,
    notebookDir: place.dir,
    notebookFile: cell.notebook.uri.fsPath,
  });
}
