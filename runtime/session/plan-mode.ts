import type { CellMetadata, NotebookMetadata, NotebookMode } from '../notebook/schema.js';
import type { PlanMode } from './session-types.js';

// One-shot overrides: the CLI's --mode/--record/--replay, the extension's record/replay commands.
export interface PlanOverride {
  // replaces the notebook's mode (cell overrides still apply)
  mode?: NotebookMode;
  // forces every cell's mode, whatever the cell says (`ptc test`: replay, or live handlers, or live recording);
  // `dir` defaults to the notebook's cassette folder; `handlers` answers a forced recording (else the effective mode)
  force?: { mode: 'record' | 'replay' | 'mock' | 'live'; dir?: string; handlers?: NotebookMode };
  // frozen clock and seeded random values, as `ptc test` runs (the Test Explorer's Debug runs)
  deterministic?: true;
}

export interface PlanModeInput {
  notebook: NotebookMetadata | undefined;
  cell: CellMetadata | undefined;
  // used when neither the notebook nor the cell says (the `defaultMode` setting)
  defaultMode?: NotebookMode;
  override?: PlanOverride;
}

// How one cell's calls are answered (`mode`) and which handlers answer them (`handlers`: a recording's too); pure and
// Node-free, so the desktop's plan and the browser entry decide identically.
export function planModes(input: PlanModeInput): { mode: PlanMode; handlers: NotebookMode } {
  const baseMode: NotebookMode = input.override?.mode ?? input.notebook?.mode ?? input.defaultMode ?? 'mock';
  const cellMode = input.cell?.mode;
  const forced = input.override?.force;
  const handlers: NotebookMode =
    forced?.handlers ??
    (cellMode === 'mock' || cellMode === 'live' ? cellMode : cellMode === 'record' ? 'live' : baseMode);
  const mode = forced?.mode ?? (cellMode === 'record' || cellMode === 'replay' ? cellMode : handlers);
  return { mode, handlers };
}
