import type { CellMetadata } from './schema.js';

// Where a notebook's cassettes sit, as path segments under the notebook's folder (committed with it).
export const CASSETTE_SEGMENTS = ['.ptc', 'cassettes'] as const;

// A cell's cassette name: its explicit `cassette`, else its id, else its 1-based position.
export function cassetteName(cell: CellMetadata | undefined, cellIndex: number): string {
  return cell?.cassette ?? cell?.id ?? `cell-${cellIndex + 1}`;
}
