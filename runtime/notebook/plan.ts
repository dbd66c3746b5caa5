import path from 'node:path';
import type { RunPlan } from '../session/session-types.js';
import type { CellMetadata, NotebookMetadata, NotebookMode } from './schema.js';

export type { PlanMode, RunPlan } from '../session/session-types.js';

// One-shot overrides: the CLI's --mode/--record/--replay, the extension's record/replay commands.
export interface PlanOverride {
  // replaces the notebook's mode (cell overrides still apply)
  mode?: NotebookMode;
  // forces every cell to record (or replay); `dir` defaults to the notebook's cassette folder
  force?: { mode: 'record' | 'replay'; dir?: string };
  // frozen clock and seeded random values, as `ptc test` runs (the Test Explorer's Debug runs)
  deterministic?: true;
}

export interface PlanInput {
  notebook: NotebookMetadata | undefined;
  cell: CellMetadata | undefined;
  cellIndex: number;
  // folder holding the notebook (cassettes live under it)
  notebookDir: string;
  // used when neither the notebook nor the cell says (the `defaultMode` setting)
  defaultMode?: NotebookMode;
  override?: PlanOverride;
}

// Cassettes sit next to the notebook so they can be committed with it.
export const CASSETTE_DIR = path.join('.ptc', 'cassettes');

export function defaultCassetteDir(notebookDir: string): string {
  return path.join(notebookDir, CASSETTE_DIR);
}

// A cell's cassette name: its explicit `cassette`, else its id, else its 1-based position.
export function cassetteName(cell: CellMetadata | undefined, cellIndex: number): string {
  return cell?.cassette ?? cell?.id ?? `cell-${cellIndex + 1}`;
}

// The effective plan of one cell; pure, so the CLI and the extension decide identically.
export function resolvePlan(input: PlanInput): RunPlan {
  const baseMode: NotebookMode = input.override?.mode ?? input.notebook?.mode ?? input.defaultMode ?? 'mock';
  const cellMode = input.cell?.mode;
  const handlers: NotebookMode = cellMode === 'mock' || cellMode === 'live' ? cellMode : cellMode === 'record' ? 'live' : baseMode;
  const forced = input.override?.force;
  const mode = forced?.mode ?? (cellMode === 'record' || cellMode === 'replay' ? cellMode : handlers);
  if (mode === 'mock' || mode === 'live') return { mode };
  const name = cassetteName(input.cell, input.cellIndex);
  const dir = forced?.dir ?? defaultCassetteDir(input.notebookDir);
  const cassettePath = path.join(dir, `${name}.json`);
  return mode === 'record' ? { mode, handlers, cassettePath, cassetteName: name } : { mode, cassettePath, cassetteName: name };
}
