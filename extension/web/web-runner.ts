// The browser's cell runs (vscode.dev, github.dev): each TypeScript cell in a fresh web worker running QuickJS
// (runtime/wasm/web/), its result written like the desktop's; Python cells and a cell that asks for the native
// engine end at once with a message naming what is missing.
import * as vscode from 'vscode';
import {
  CASSETTE_SEGMENTS,
  cassetteName,
  notebookCassetteFolder,
  cellLimits,
  CellMetadataSchema,
  parseCassette,
  replayFromCassette,
  resolveRequest,
  stripLoaded,
  WebEngine,
  type RunResult,
  type RunWorker,
} from '../../runtime/browser.js';
import { settingsLimits, type PlaygroundConfig } from '../config/settings.js';
import type { Logger } from '../log/logger.js';
import { problemOutput, resultOutput } from '../notebook/result-output.js';
import RUN_WORKER_SOURCE from 'ptc:run-worker';

const NATIVE_IN_BROWSER =
  'This cell asks for the native engine (limits.engine "native"), which needs VS Code on the desktop: a browser has no processes to sandbox. Remove the setting to run it here in the quickjs WebAssembly engine.';

// One engine per extension host: the stripper loads once, the isolation proof runs once.
export function createWebEngine(): WebEngine {
  let workerUrl: string | undefined;
  return new WebEngine({
    startWorker: () => {
      // a blob: URL is same-origin wherever the extension's files are served from
      workerUrl ??= URL.createObjectURL(new Blob([RUN_WORKER_SOURCE], { type: 'text/javascript' }));
      const worker = new Worker(workerUrl, { name: 'ptc-run' });
      const run: RunWorker = {
        postMessage: (message) => worker.postMessage(message),
        terminate: () => worker.terminate(),
        onmessage: null,
        onerror: null,
      };
      worker.onmessage = (event) => run.onmessage?.(event);
      worker.onerror = (event) => run.onerror?.(event);
      return run;
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

// Runs one cell's program; never throws (every outcome is a result).
export async function runWebCell(
  engine: WebEngine,
  cell: WebCell,
  config: PlaygroundConfig,
  signal: AbortSignal,
  replay?: CassetteReplay,
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
    ...(replay === undefined
      ? {}
      : {
          bindings: replay.namespaces,
          ...(replay.deterministic === undefined ? {} : { deterministic: replay.deterministic }),
        }),
  });
  if (limits.engine === 'native') return engine.refuse(spec, NATIVE_IN_BROWSER);
  const result = await engine.run(spec);
  replay?.finish(result);
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

// The notebook kernel of the browser entry: runs cells one at a time, Stop cancels the running one.
export function registerWebController(
  controller: vscode.NotebookController,
  engine: WebEngine,
  readConfig: () => PlaygroundConfig,
  log: Logger,
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
      const cassette = await cassetteOf(cell.notebook.uri, cell, (message) => log.warn(message));
      if (cassette.problem !== undefined) {
        await execution.replaceOutput(problemOutput(cassette.problem, { persist: false }));
        execution.end(false, Date.now());
        return;
      }
      const result = await runWebCell(
        engine,
        { languageId: cell.document.languageId, program, metadata: cell.metadata },
        readConfig(),
        abort.signal,
        cassette.replay,
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
