import * as vscode from 'vscode';
import {
  notebookBindingsPath,
  type PlanOverride,
  type SessionOutcome,
  type SessionRunRequest,
} from '../../runtime/index.js';
import { defaultBindingsFor } from '../bindings/default-bindings.js';
import { readConfig } from '../config/config.js';
import { settingsLimits } from '../config/settings.js';
import { CONTROLLER_ID, NOTEBOOK_TYPE, TASK_LANGUAGE } from '../constants.js';
import type { Logger } from '../log/logger.js';
import { hasCassette } from '../notebook/cassette-path.js';
import { idForCell } from '../notebook/cell-ids.js';
import { expectationOf } from '../testing/expectation-of.js';
import { notebookPlace } from '../notebook/locations.js';
import { problemOutput } from '../notebook/result-output.js';
import { cellRunMetadata, notebookRunMetadata } from '../notebook/run-metadata.js';
import type { CallProgressSnapshot } from './call-progress.js';
import { type CellJobDeps, type CellJobOutcome, runCellJob } from './cell-job.js';
import { ExecutionOrders } from './execution-order.js';
import { KeyedSerialQueue } from './queue.js';
import { executionPort } from './vscode-port.js';

export interface ControllerDeps {
  log: Logger;
  // runs a cell in its notebook's session
  run: (
    notebook: vscode.NotebookDocument,
    request: SessionRunRequest,
    paths: Parameters<CellJobDeps['run']>[1],
  ) => Promise<SessionOutcome>;
  approveRuntimePaths: (
    language: 'typescript' | 'python',
    scope: vscode.Uri,
  ) => ReturnType<CellJobDeps['approveRuntimePaths']>;
  // told when a cell starts and finishes running (status bar, inspector, renderer buttons)
  onDidStart?: (cell: vscode.NotebookCell) => void;
  onDidFinish?: (cell: vscode.NotebookCell, outcome: CellJobOutcome) => void;
  // runs a task cell (extension/model/task-job.ts); outside the notebook's queue, since it queues the cells it writes
  runTask?: (cell: vscode.NotebookCell, execution: vscode.NotebookCellExecution) => Promise<void>;
  // live binding-call counts of a running cell; undefined when it stops running
  onProgress?: (cell: vscode.NotebookCell, snapshot: CallProgressSnapshot | undefined) => void;
  // the call breakpoints of a run of `cell` and who decides its paused calls
  pausesFor?: (cell: vscode.NotebookCell) => NonNullable<SessionRunRequest['pauses']>;
}

// --- the one NotebookController for `.ptcnb`: per-notebook queue, per-notebook execution order
export class PtcNotebookController implements vscode.Disposable {
  readonly #controller: vscode.NotebookController;
  readonly #deps: ControllerDeps;
  readonly #queue: KeyedSerialQueue<vscode.NotebookDocument>;
  readonly #orders = new ExecutionOrders<vscode.NotebookDocument>();
  // one-shot plans (record/replay commands) waiting for VS Code to hand the cell to the execute handler
  readonly #pendingOverrides = new Map<vscode.NotebookCell, PlanOverride>();
  // cells with an execution of ours, queued or running: what Stop Running Cells stops
  readonly #active = new Set<vscode.NotebookCell>();
  readonly #disposables: vscode.Disposable[] = [];

  constructor(deps: ControllerDeps) {
    this.#deps = deps;
    this.#queue = new KeyedSerialQueue((error) => deps.log.error('a cell job failed unexpectedly', error));
    const controller = vscode.notebooks.createNotebookController(
      CONTROLLER_ID,
      NOTEBOOK_TYPE,
      vscode.l10n.t('PTC Playground'),
    );
    controller.supportedLanguages = ['typescript', 'python', TASK_LANGUAGE];
    controller.supportsExecutionOrder = true;
    controller.description = vscode.l10n.t('Sandboxed model programs');
    controller.detail = vscode.l10n.t(
      "Runs each cell in a fresh sandboxed Node.js or CPython process with the notebook's bindings",
    );
    // no interruptHandler: with one set, VS Code stops firing execution tokens
    controller.executeHandler = (cells, notebook) => this.execute(cells, notebook);
    this.#controller = controller;
    this.#disposables.push(
      controller,
      vscode.workspace.onDidOpenNotebookDocument((notebook) => this.#prefer(notebook)),
    );
    for (const notebook of vscode.workspace.notebookDocuments) this.#prefer(notebook);
  }

  // Queues cells (shown as pending at once) and runs them one at a time per notebook; a failed cell does not stop
  // the cells queued after it, so Run All shows every cell's outcome (cells are independent programs).
  execute(cells: readonly vscode.NotebookCell[], notebook: vscode.NotebookDocument): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const cell of cells) {
      const override = this.#pendingOverrides.get(cell);
      this.#pendingOverrides.delete(cell);
      let execution: vscode.NotebookCellExecution;
      try {
        execution = this.#controller.createNotebookCellExecution(cell);
      } catch (error) {
        // VS Code refuses a second execution for a cell that is already queued or running
        this.#deps.log.warn(`cell ${cell.index + 1} of ${notebook.uri.toString()} is already queued or running`, error);
        continue;
      }
      const runTask = this.#deps.runTask;
      if (cell.document.languageId === TASK_LANGUAGE && runTask !== undefined)
        jobs.push(
          this.#track(
            cell,
            runTask(cell, execution).catch((error: unknown) =>
              this.#deps.log.error('a task cell failed unexpectedly', error),
            ),
          ),
        );
      else
        jobs.push(
          this.#track(
            cell,
            this.#queue.run(notebook, () => this.#runOne(cell, execution, override)),
          ),
        );
    }
    return Promise.all(jobs).then(() => undefined);
  }

  // Runs one code cell now (queued behind the notebook's other cells) with a one-shot plan; resolves once it ran.
  runCell(cell: vscode.NotebookCell, override: PlanOverride): Promise<void> {
    let execution: vscode.NotebookCellExecution;
    try {
      execution = this.#controller.createNotebookCellExecution(cell);
    } catch (error) {
      this.#deps.log.warn(
        `cell ${cell.index + 1} of ${cell.notebook.uri.toString()} is already queued or running`,
        error,
      );
      return Promise.resolve();
    }
    return this.#track(
      cell,
      this.#queue.run(cell.notebook, () => this.#runOne(cell, execution, override)),
    );
  }

  // The notebook's cells queued or running under this controller, in notebook order.
  activeCells(notebook: vscode.NotebookDocument): vscode.NotebookCell[] {
    return [...this.#active].filter((c) => c.notebook === notebook && c.index >= 0).sort((a, b) => a.index - b.index);
  }

  #track(cell: vscode.NotebookCell, job: Promise<void>): Promise<void> {
    this.#active.add(cell);
    return job.finally(() => this.#active.delete(cell));
  }

  // Runs one cell with a one-shot plan through VS Code's own execute command (which selects this controller if
  // needed); resolves once the cell has run, because the command awaits the execute handler.
  async executeWithOverride(cell: vscode.NotebookCell, override: PlanOverride): Promise<boolean> {
    this.#pendingOverrides.set(cell, override);
    let consumed: boolean;
    try {
      await vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: cell.index, end: cell.index + 1 }],
        document: cell.notebook.uri,
      });
    } finally {
      // the execute handler takes the override when it runs the cell; one still pending was never used
      consumed = this.#pendingOverrides.get(cell) !== override;
      if (!consumed) this.#pendingOverrides.delete(cell);
    }
    return consumed;
  }

  // Replaces a cell's shown result without running it (Accept as Expected re-checks the same run): the cell keeps
  // its execution order and gets the new ✓/✗.
  async restamp(cell: vscode.NotebookCell, output: vscode.NotebookCellOutput, success: boolean): Promise<boolean> {
    let execution: vscode.NotebookCellExecution;
    try {
      execution = this.#controller.createNotebookCellExecution(cell);
    } catch {
      // queued or running: its own result is about to replace this one anyway
      return false;
    }
    execution.executionOrder = cell.executionSummary?.executionOrder;
    execution.start(Date.now());
    await execution.replaceOutput(output);
    execution.end(success, Date.now());
    return true;
  }

  async #runOne(
    cell: vscode.NotebookCell,
    execution: vscode.NotebookCellExecution,
    override: PlanOverride | undefined,
  ): Promise<void> {
    const notebook = cell.notebook;
    const workspaceFolder =
      vscode.workspace.getWorkspaceFolder(notebook.uri)?.uri.fsPath ??
      vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const place = notebookPlace({ scheme: notebook.uri.scheme, fsPath: notebook.uri.fsPath, workspaceFolder });
    if (place === undefined) {
      execution.start(Date.now());
      await execution.replaceOutput(
        problemOutput(
          vscode.l10n.t('Cells run only in notebooks stored on the local disk (this one is {0}).', notebook.uri.scheme),
          { persist: false },
        ),
      );
      execution.end(false, Date.now());
      return;
    }
    const cellId = await this.#ensureCellId(cell, execution);
    const { config } = readConfig(notebook.uri);
    const notebookMetadata = notebookRunMetadata(notebook.metadata);
    this.#deps.onDidStart?.(cell);
    const outcome = await runCellJob(
      executionPort(execution, { cellId, hasCassette: () => hasCassette(cell) }),
      {
        languageId: cell.document.languageId,
        program: cell.document.getText(),
        cellIndex: cell.index,
        cellLabel: `${vscode.workspace.asRelativePath(notebook.uri)} cell ${cell.index + 1}`,
        cellMetadata: { ...cellRunMetadata(cell.metadata), ...(cellId === undefined ? {} : { id: cellId }) },
        notebookMetadata,
        notebookDir: place.dir,
        notebookFile: notebook.uri.fsPath,
        cwd: place.cwd,
        bindingsPath: notebookBindingsPath({
          metadataBindings: notebookMetadata.bindings,
          notebookDir: place.dir,
          ...defaultBindingsFor(notebook.uri),
        }),
        defaultMode: config.defaultMode,
        limits: settingsLimits(config),
        trusted: vscode.workspace.isTrusted,
        ...expectationField(cell.metadata),
        ...(override === undefined ? {} : { override }),
        ...(this.#deps.pausesFor === undefined ? {} : { pauses: this.#deps.pausesFor(cell) }),
      },
      {
        run: (request, paths) => this.#deps.run(notebook, request, paths),
        approveRuntimePaths: (language) => this.#deps.approveRuntimePaths(language, notebook.uri),
        nextExecutionOrder: () => this.#orders.take(notebook),
        onProgress: (snapshot) => this.#deps.onProgress?.(cell, snapshot),
        log: this.#deps.log,
        t: vscode.l10n.t,
      },
    );
    this.#deps.onDidFinish?.(cell, outcome);
  }

  // Every run carries a stable, unique cell id (cassette names, renderer actions); copies of a cell get a new one.
  async #ensureCellId(cell: vscode.NotebookCell, execution: vscode.NotebookCellExecution): Promise<string | undefined> {
    const earlier = new Set<string>();
    const all = new Set<string>();
    for (const other of cell.notebook.getCells()) {
      const id: unknown = other.metadata.id;
      if (typeof id !== 'string') continue;
      all.add(id);
      if (other.index < cell.index) earlier.add(id);
    }
    const { id, assigned } = idForCell(cell.metadata.id, earlier, all);
    if (!assigned) return id;
    if (execution.token.isCancellationRequested) return undefined;
    const edit = new vscode.WorkspaceEdit();
    edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, id })]);
    const applied = await vscode.workspace.applyEdit(edit);
    if (!applied)
      this.#deps.log.warn(`could not store an id on cell ${cell.index + 1}; record/replay will name it by position`);
    return applied ? id : undefined;
  }

  #prefer(notebook: vscode.NotebookDocument): void {
    if (notebook.notebookType === NOTEBOOK_TYPE)
      this.#controller.updateNotebookAffinity(notebook, vscode.NotebookControllerAffinity.Preferred);
  }

  // Which interpreters cells use, in the kernel picker's detail line.
  setInterpreterDetail(python: string | undefined): void {
    const base = vscode.l10n.t(
      "Runs each cell in a fresh sandboxed Node.js or CPython process with the notebook's bindings",
    );
    this.#controller.detail = python === undefined ? base : `${base} · ${vscode.l10n.t('Python: {0}', python)}`;
  }

  dispose(): void {
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}

function expectationField(metadata: { readonly [key: string]: unknown }): {
  expectation?: NonNullable<ReturnType<typeof expectationOf>>;
} {
  const expectation = expectationOf(metadata);
  return expectation === undefined ? {} : { expectation };
}
