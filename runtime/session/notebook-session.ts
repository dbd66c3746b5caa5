import path from 'node:path';
import type { CellMetadata, NotebookMetadata, NotebookMode } from '../notebook/schema.js';
import { cellLimits } from './cell-limits.js';
import type { PauseRequest } from './run-pauses.js';
import { resolvePlan, type PlanOverride } from './plan.js';
import { createSession } from './session.js';
import type { RunLimits, RuntimeProvider, Session, SessionOptions, SessionRunRequest } from './session-types.js';

// The layer between a notebook (its folder, metadata and cells) and a Session: which bindings module it uses, the
// session that serves its cells, and how one cell becomes a run request. The extension's cells and Test Explorer,
// `ptc notebook`, `ptc test` and import verification all go through here, so they decide alike.

// The bindings module a notebook uses: its own `metadata.bindings` (relative to its folder), else a default (the
// extension's `defaultBindings` setting, relative to the workspace folder).
export function notebookBindingsPath(input: {
  metadataBindings: unknown;
  notebookDir: string;
  defaultBindings?: string;
  workspaceFolder?: string | undefined;
}): string | undefined {
  if (typeof input.metadataBindings === 'string' && input.metadataBindings.trim() !== '')
    return path.resolve(input.notebookDir, input.metadataBindings);
  const fallback = input.defaultBindings?.trim() ?? '';
  return fallback === '' ? undefined : path.resolve(input.workspaceFolder ?? input.notebookDir, fallback);
}

// What every notebook session of one front end shares: the runtime, the default bindings module, and where the
// bindings' own output goes.
export interface NotebookSessionSettings {
  runtimeFor?: RuntimeProvider;
  // the module for a notebook that names none (the extension's `defaultBindings` setting, for its folder)
  defaultBindings?: (notebookDir: string) => { defaultBindings: string; workspaceFolder: string | undefined };
  // the bindings' own console output for the module at `bindingsPath` (labelled by the caller), never a cell's
  bindingsLog?: (bindingsPath: string | undefined) => SessionOptions['onBindingsLog'];
  onBindingsStatus?: SessionOptions['onBindingsStatus'];
}

// One notebook's session: one bindings host for all its cells, whose handlers resolve relative paths against the
// notebook's folder (as the programs do).
// `metadataBindings`: the notebook's own `metadata.bindings`, as found in the file (checked here).
export function openNotebookSession(
  options: NotebookSessionSettings & { notebookDir: string; metadataBindings: unknown },
): Session {
  const bindingsPath = notebookBindingsPath({
    metadataBindings: options.metadataBindings,
    notebookDir: options.notebookDir,
    ...options.defaultBindings?.(options.notebookDir),
  });
  const onBindingsLog = options.bindingsLog?.(bindingsPath);
  return createSession({
    ...(bindingsPath === undefined ? {} : { bindingsPath, bindingsCwd: options.notebookDir }),
    ...(options.runtimeFor === undefined ? {} : { runtimeFor: options.runtimeFor }),
    ...(onBindingsLog === undefined ? {} : { onBindingsLog }),
    ...(options.onBindingsStatus === undefined ? {} : { onBindingsStatus: options.onBindingsStatus }),
  });
}

// The run's program and its listeners are the session's own fields, passed through as they are.
export interface CellRunInput extends Pick<
  SessionRunRequest,
  'language' | 'program' | 'signal' | 'onLog' | 'onCall' | 'onCallStart' | 'onWarning'
> {
  // position in the notebook (0-based, markdown cells included): names the cassette of a cell without an id
  cellIndex: number;
  cell: CellMetadata | undefined;
  notebook: NotebookMetadata | undefined;
  notebookDir: string;
  // the notebook's file (path or name): its cassettes are `.ptc/cassettes/<its name>/`
  notebookFile: string;
  // the program's working directory; the notebook's folder unless said
  cwd?: string;
  // the mode when neither the notebook nor the cell says (the extension's `defaultMode` setting)
  defaultMode?: NotebookMode;
  // one-shot overrides: a command's --mode/--record/--replay, `ptc test`'s replay/live/update, Record/Replay in VS Code
  override?: PlanOverride;
  // the front end's limits; the cell's own metadata narrows them
  limits?: RunLimits;
  // the front end's breakpoints, decider and fork; the notebook's approval policies are added here
  pauses?: PauseRequest;
}

// One cell as a run request: its plan, limits, working directory and determinism, decided once for every front end.
export function cellRunRequest(input: CellRunInput): SessionRunRequest & { limits: RunLimits } {
  const plan = resolvePlan({
    notebook: input.notebook,
    cell: input.cell,
    cellIndex: input.cellIndex,
    notebookDir: input.notebookDir,
    notebookFile: input.notebookFile,
    ...(input.defaultMode === undefined ? {} : { defaultMode: input.defaultMode }),
    ...(input.override === undefined ? {} : { override: input.override }),
  });
  return {
    language: input.language,
    program: input.program,
    plan,
    limits: cellLimits(input.limits ?? {}, input.cell),
    cwd: input.cwd ?? input.notebookDir,
    ...(input.override?.deterministic === true ? { deterministic: true } : {}),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
    ...(input.onLog === undefined ? {} : { onLog: input.onLog }),
    ...(input.onCall === undefined ? {} : { onCall: input.onCall }),
    ...(input.onCallStart === undefined ? {} : { onCallStart: input.onCallStart }),
    ...(input.onWarning === undefined ? {} : { onWarning: input.onWarning }),
    ...cellPauses(input.pauses, input.notebook?.approvals),
  };
}

// The cell's pauses: the front end's, with the notebook's approval policies under the front end's own overrides.
function cellPauses(
  pauses: PauseRequest | undefined,
  approvals: NotebookMetadata['approvals'],
): { pauses?: PauseRequest } {
  if (approvals === undefined) return pauses === undefined ? {} : { pauses };
  return { pauses: { ...pauses, approvals: { ...approvals, ...pauses?.approvals } } };
}
