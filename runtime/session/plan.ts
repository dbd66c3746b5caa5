import path from 'node:path';
import type { RunPlan } from './session-types.js';
import { CASSETTE_SEGMENTS, cassetteName, notebookCassetteFolder } from '../notebook/cassette-name.js';
import type { CellMetadata } from '../notebook/schema.js';
import { planModes, type PlanModeInput, type PlanOverride } from './plan-mode.js';

export type { PlanMode, RunPlan } from './session-types.js';
export type { PlanOverride };

export interface PlanInput extends PlanModeInput {
  cellIndex: number;
  // folder holding the notebook (cassettes live under it)
  notebookDir: string;
  // the notebook's file (a path or its name): its cassettes are a folder of their own, named after it
  notebookFile: string;
}

// Cassettes sit next to the notebook so they can be committed with it.
export const CASSETTE_DIR = path.join(...CASSETTE_SEGMENTS);

export function defaultCassetteDir(notebookDir: string): string {
  return path.join(notebookDir, CASSETTE_DIR);
}

export { cassetteName };

// The effective plan of one cell; pure, so the CLI and the extension decide identically.
export function resolvePlan(input: PlanInput): RunPlan {
  const { mode, handlers } = planModes(input);
  const forced = input.override?.force;
  if (mode === 'mock' || mode === 'live') return { mode };
  const name = cassetteName(input.cell, input.cellIndex);
  const where = { ...input, ...(forced?.dir === undefined ? {} : { dir: forced.dir }) };
  const cassette = {
    cassettePath: cellCassettePath(where),
    cassetteName: name,
    legacy: {
      path: legacyCassettePath(where),
      notebookFile: input.notebookFile,
      // only the notebook's own folder can tell whether another notebook still reads the old file
      ...(forced?.dir === undefined ? { notebookDir: input.notebookDir } : {}),
    },
  };
  return mode === 'record' ? { mode, handlers, ...cassette } : { mode, ...cassette };
}

export interface CellCassetteInput {
  cell: CellMetadata | undefined;
  cellIndex: number;
  notebookDir: string;
  notebookFile: string;
  // a cassette root other than the notebook's `.ptc/cassettes` (a command's --record/--replay DIR)
  dir?: string;
}

// Where a cell's cassette is (or would be) stored: `<root>/<notebook name>/<cassette name>.json`, the root being the
// notebook's `.ptc/cassettes` unless said; keyed by notebook and cell so no two notebooks of a folder share one.
export function cellCassettePath(input: CellCassetteInput): string {
  return path.join(
    input.dir ?? defaultCassetteDir(input.notebookDir),
    notebookCassetteFolder(input.notebookFile),
    `${cassetteName(input.cell, input.cellIndex)}.json`,
  );
}

// Where the folder-wide layout before per-notebook folders kept the cell's cassette (`<root>/<cassette name>.json`):
// read when the cell has none of its own yet, retired once it records one.
export function legacyCassettePath(input: CellCassetteInput): string {
  return path.join(
    input.dir ?? defaultCassetteDir(input.notebookDir),
    `${cassetteName(input.cell, input.cellIndex)}.json`,
  );
}

// Both places of a cell's cassette, for front ends: where it is written, and where an older layout may have left it.
export function cellCassetteFiles(input: CellCassetteInput): { own: string; legacy: string } {
  return { own: cellCassettePath(input), legacy: legacyCassettePath(input) };
}
