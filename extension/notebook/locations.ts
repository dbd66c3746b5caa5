import os from 'node:os';
import path from 'node:path';

export interface NotebookPlace {
  // folder of the notebook file, or of its workspace for untitled notebooks
  dir: string;
  // where the program runs (same folder)
  cwd: string;
}

// Where a notebook lives on disk; undefined for virtual (non-file) documents, which cannot run cells.
export function notebookPlace(input: {
  scheme: string;
  fsPath: string;
  workspaceFolder: string | undefined;
}): NotebookPlace | undefined {
  if (input.scheme === 'file') {
    const dir = path.dirname(input.fsPath);
    return { dir, cwd: dir };
  }
  if (input.scheme === 'untitled') {
    const dir = input.workspaceFolder ?? os.tmpdir();
    return { dir, cwd: dir };
  }
  return undefined;
}
