import { NOTEBOOK_FILE_EXTENSION, type CellMetadata } from './schema.js';

// Where a notebook's cassettes sit, as path segments under the notebook's folder (committed with it).
export const CASSETTE_SEGMENTS = ['.ptc', 'cassettes'] as const;

// A cell's cassette name: its explicit `cassette`, else its id, else its 1-based position.
export function cassetteName(cell: CellMetadata | undefined, cellIndex: number): string {
  return cell?.cassette ?? cell?.id ?? `cell-${cellIndex + 1}`;
}

// The folder of one notebook's cassettes under CASSETTE_SEGMENTS: its file name without `.ptcnb`, so two notebooks of
// a folder never share a cassette (`.ptc/cassettes/<notebook>/<cell>.json`). Takes a path or a name, / or \.
export function notebookCassetteFolder(notebookFile: string): string {
  const base = notebookFile.split(/[\\/]/).pop() ?? notebookFile;
  const stem = base.endsWith(NOTEBOOK_FILE_EXTENSION) ? base.slice(0, -NOTEBOOK_FILE_EXTENSION.length) : base;
  // `..ptcnb` would name the parent folder
  return stem === '' || stem === '.' || stem === '..' ? base : stem;
}
