// The browser's cell runs (vscode.dev, github.dev): each TypeScript cell in a fresh web worker running QuickJS, each
// Python cell in one running Pyodide (runtime/wasm/web/), its result written like the desktop's; a cell that asks for
// the native engine ends at once with a message naming what is missing. Its calls are answered by the MCP servers of
// the notebook's JSON bindings module (web-bindings.ts), else by the cell's cassette.
import * as vscode from 'vscode';
import {
  CASSETTE_SEGMENTS,
  cassetteName,
  cellLimits,
  CellMetadataSchema,
  errorMessage,
  LIMITS,
  loadPyodideAssets,
  notebookCassetteFolder,
  NotebookMetadataSchema,
  parseCassette,
  planModes,
  PYODIDE_WEB_FOLDER,
  type PyodideAssets,
  replayFromCassette,
  resolveRequest,
  type RunPauses,
  type RunResult,
  stripLoaded,
  WebEngine,
} from '../../runtime/browser.js';
import { settingsLimits, type PlaygroundConfig } from '../config/settings.js';
import type { Logger } from '../log/logger.js';
import { problemOutput, resultOutput } from '../notebook/result-output.js';
import type { WebBindings } from './web-bindings.js';
import { embeddedWorker, runWorker, type StartedWorker } from './embedded-worker.js';
import RUN_WORKER_SOURCE from 'ptc:run-worker';
import PYODIDE_WORKER_SOURCE from 'ptc:pyodide-worker';

const NATIVE_IN_BROWSER =
  'This cell asks for the native engine (limits.engine "native"), which needs VS Code on the desktop: a browser has no processes to sandbox. Remove the setting to run it here in a WebAssembly engine (quickjs for TypeScript, pyodide for Python).';

// Reads one of Pyodide's files from the extension's folder: over HTTP(S) where the editor serves extensions from a
// web address (vscode.dev, github.dev), through the editor's file system otherwise.
function extensionFileReader(extensionUri: vscode.Uri): (file: string) => Promise<Uint8Array<ArrayBuffer>> {
  return async (file) => {
    const uri = vscode.Uri.joinPath(extensionUri, ...PYODIDE_WEB_FOLDER, file);
    if (uri.scheme !== 'http' && uri.scheme !== 'https') return new Uint8Array(await vscode.workspace.fs.readFile(uri));
    const response = await fetch(uri.toString(true));
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
}

// One engine per extension host: the stripper loads once, each engine's isolation proof runs once, Pyodide's files
// are read and compiled once (on the first Python run, never at activation), and after each Python run a spare worker
// loads the next interpreter while the editor is idle.
export function createWebEngine(extensionUri: vscode.Uri): WebEngine {
  let assets: Promise<PyodideAssets> | undefined;
  const read = extensionFileReader(extensionUri);
  // read and compiled once; a failure is said to the run that met it and tried again by the next
  const loadAssets = (): Promise<PyodideAssets> => {
    assets ??= loadPyodideAssets(read).catch((error: unknown) => {
      assets = undefined;
      throw new Error(`the pyodide engine's files could not be loaded: ${errorMessage(error)}`);
    });
    return assets;
  };
  const startPyodide = (): StartedWorker => {
    const run = runWorker(embeddedWorker(PYODIDE_WORKER_SOURCE, 'ptc-pyodide'));
    loadAssets().then(
      // the compiled module is shared with the worker, not copied or compiled again
      (loaded) => run.terminated || run.worker.postMessage(loaded),
      // a spare whose files could not be read ends as a worker that could not start says so: its first frame
      (error: unknown) =>
        run.deliver(JSON.stringify({ type: 'done', error: { kind: 'exception', message: errorMessage(error) } })),
    );
    return run;
  };
  let spare: StartedWorker | undefined;
  return new WebEngine({
    startWorker: (engine) => {
      if (engine === 'quickjs') return runWorker(embeddedWorker(RUN_WORKER_SOURCE, 'ptc-run'));
      const run = spare ?? startPyodide();
      spare = undefined;
      const terminate = run.terminate;
      // used once: the next interpreter starts loading as this run ends
      run.terminate = () => {
        terminate();
        spare ??= startPyodide();
      };
      // handed over once its interpreter is loaded (or it said why it cannot be)
      return run.said.then(() => run);
    },
    strip: (program) => stripLoaded(program),
  });
}

export interface WebCell {
  languageId: string;
  program: string;
  metadata: unknown;
}

// The settings' limits narrowed by the cell's own metadata (as on the desktop).
function limitsOf(metadata: unknown, config: PlaygroundConfig) {
  const parsed = CellMetadataSchema.safeParse(metadata ?? {});
  return cellLimits(settingsLimits(config), parsed.success ? parsed.data : undefined);
}

// Who answers a run's calls: a cassette's replay, a bindings module's MCP servers or its worker; `finish` sees every
// result (it ends a worker's lease); `pauses`: the calls held for a decision (the module's approvals).
type CellCalls = Pick<CassetteReplay, 'namespaces' | 'deterministic'> & {
  finish(result: RunResult): unknown;
  pauses?: RunPauses | undefined;
};

// Runs one cell's program; never throws (every outcome is a result).
export async function runWebCell(
  engine: WebEngine,
  cell: WebCell,
  config: PlaygroundConfig,
  signal: AbortSignal,
  calls?: CellCalls,
): Promise<RunResult> {
  const limits = limitsOf(cell.metadata, config);
  const spec = resolveRequest({
    language: cell.languageId === 'python' ? 'python' : 'typescript',
    program: cell.program,
    cwd: '/',
    timeoutMs: limits.timeoutMs,
    maxOutputBytes: limits.maxOutputBytes,
    memoryMb: limits.memoryMb,
    ...(limits.maxCalls === undefined ? {} : { maxCalls: limits.maxCalls }),
    engine: 'wasm',
    signal,
    ...(calls === undefined
      ? {}
      : {
          bindings: calls.namespaces,
          ...(calls.deterministic === undefined ? {} : { deterministic: calls.deterministic }),
          ...(calls.pauses === undefined ? {} : { pauses: calls.pauses }),
        }),
  });
  const result = limits.engine === 'native' ? engine.refuse(spec, NATIVE_IN_BROWSER) : await engine.run(spec);
  calls?.finish(result);
  return result;
}

type CassetteReplay = ReturnType<typeof replayFromCassette>;

// The cell's cassette (`.ptc/cassettes/<notebook>/<name>.json` beside the notebook, else where the folder-wide layout
// before per-notebook folders kept it, `.ptc/cassettes/<name>.json`), read through the editor: none, a replay, or why
// it cannot be read. In the browser no handler runs, so a cassette is how a cell's calls are answered.
async function cassetteOf(
  notebook: vscode.Uri,
  cell: { index: number; metadata: unknown },
  warn: (message: string) => void,
): Promise<{ replay?: CassetteReplay; problem?: string }> {
  const parsed = CellMetadataSchema.safeParse(cell.metadata ?? {});
  const name = cassetteName(parsed.success ? parsed.data : undefined, cell.index);
  const places = [
    [...CASSETTE_SEGMENTS, notebookCassetteFolder(notebook.path), `${name}.json`],
    [...CASSETTE_SEGMENTS, `${name}.json`],
  ];
  let found: { bytes: Uint8Array; where: string } | undefined;
  for (const segments of places) {
    try {
      found = {
        bytes: await vscode.workspace.fs.readFile(vscode.Uri.joinPath(notebook, '..', ...segments)),
        where: segments.join('/'),
      };
      break;
    } catch {
      // not here: the next place, else no cassette and the program runs with no bindings
    }
  }
  if (found === undefined) return {};
  const { bytes, where } = found;
  const loaded = parseCassette(new TextDecoder().decode(bytes), `cassette ${where}`);
  if (!loaded.ok) return { problem: loaded.message };
  return { replay: replayFromCassette(loaded.cassette, { deterministic: undefined, warn, where }) };
}

// Who answers a cell's calls, by the plan the desktop would make (planModes): its cassette when it replays or the
// notebook names no bindings module, else that module's MCP servers (a JSON module: live, as on the desktop) or its
// mock handlers in a worker of their own (a code module); or why the cell cannot run.
async function callsOf(
  cell: vscode.NotebookCell,
  bindings: WebBindings,
  log: Logger,
  config: PlaygroundConfig,
  signal: AbortSignal,
): Promise<{ answer?: CellCalls } | { problem: string }> {
  const parsed = CellMetadataSchema.safeParse(cell.metadata ?? {});
  const notebook = NotebookMetadataSchema.safeParse(cell.notebook.metadata ?? {});
  const { mode, handlers } = planModes({
    notebook: notebook.success ? notebook.data : undefined,
    cell: parsed.success ? parsed.data : undefined,
    defaultMode: config.defaultMode,
  });
  const served =
    mode === 'replay'
      ? ({ kind: 'none' } as const)
      : await bindings.forNotebook(cell.notebook, {
          handlers,
          // the module's load is bounded by the cell's deadline, as on the desktop
          timeoutMs: limitsOf(cell.metadata, config).timeoutMs ?? LIMITS.timeoutMs.default,
          signal,
        });
  if (served.kind === 'failed') return { problem: served.message };
  if (served.kind === 'live' || served.kind === 'mock') {
    if (mode === 'record')
      log.warn(
        `recording a cassette needs VS Code on the desktop: this cell ran ${served.kind}, and no cassette was written`,
      );
    if (served.kind === 'mock')
      return {
        answer: {
          namespaces: served.namespaces,
          pauses: served.pauses,
          deterministic: undefined,
          finish: served.finish,
        },
      };
    const finish = (result: RunResult): void => {
      result.mode = 'live';
    };
    return { answer: { namespaces: served.namespaces, deterministic: undefined, finish } };
  }
  const cassette = await cassetteOf(cell.notebook.uri, cell, (message) => log.warn(message));
  if (cassette.problem !== undefined) return { problem: cassette.problem };
  return cassette.replay === undefined ? {} : { answer: cassette.replay };
}

// The notebook kernel of the browser entry: runs cells one at a time, Stop cancels the running one.
export function registerWebController(
  controller: vscode.NotebookController,
  engine: WebEngine,
  readConfig: () => PlaygroundConfig,
  log: Logger,
  bindings: WebBindings,
): void {
  let order = 0;
  let queue = Promise.resolve();
  controller.supportedLanguages = ['typescript', 'python'];
  controller.supportsExecutionOrder = true;
  controller.executeHandler = (cells) => {
    for (const cell of cells) {
      const execution = controller.createNotebookCellExecution(cell);
      queue = queue.then(() => runOne(execution));
    }
    return queue;
  };
  const runOne = async (execution: vscode.NotebookCellExecution): Promise<void> => {
    const cell = execution.cell;
    const abort = new AbortController();
    const cancelled = execution.token.onCancellationRequested(() =>
      abort.abort(new Error('cancelled from the notebook')),
    );
    const started = Date.now();
    execution.executionOrder = ++order;
    execution.start(started);
    try {
      await execution.clearOutput();
      const program = cell.document.getText();
      const calls = await callsOf(cell, bindings, log, readConfig(), abort.signal);
      if ('problem' in calls) {
        await execution.replaceOutput(problemOutput(calls.problem, { persist: false }));
        execution.end(false, Date.now());
        return;
      }
      const result = await runWebCell(
        engine,
        { languageId: cell.document.languageId, program, metadata: cell.metadata },
        readConfig(),
        abort.signal,
        calls.answer,
      );
      const id = (cell.metadata as { id?: unknown } | undefined)?.id;
      await execution.replaceOutput(
        resultOutput(result, {
          program,
          cellId: typeof id === 'string' ? id : undefined,
          timeoutMs: result.error?.kind === 'timeout' ? limitsOf(cell.metadata, readConfig()).timeoutMs : undefined,
          cellMs: Date.now() - started,
        }),
      );
      // cancelled is neither ✓ nor ✗, as on the desktop
      execution.end(result.error?.kind === 'abort' ? undefined : result.error === undefined, Date.now());
    } catch (error) {
      log.error(`a cell run failed in the browser: ${String((error as Error)?.stack ?? error)}`);
      execution.end(false, Date.now());
    } finally {
      cancelled.dispose();
    }
  };
}
