import path from 'node:path';
import * as vscode from 'vscode';
import {
  createRuntime,
  parseNotebook,
  runTestSuite,
  testCells,
  testTitle,
  type CellTestResult,
  type Language,
  type NotebookFile,
  type RuntimeOptions,
} from '../../runtime/index.js';
import type { RuntimePathApprovals } from '../config/runtime-path-approvals.js';
import { defaultBindingsFor } from '../bindings/default-bindings.js';
import { readConfig } from '../config/config.js';
import { settingsLimits } from '../config/settings.js';
import { NOTEBOOK_TYPE } from '../constants.js';
import type { PtcNotebookController } from '../execution/controller.js';
import type { Logger } from '../log/logger.js';
import { fromNotebookData } from '../notebook/notebook-data.js';
import { outputMetaOf } from '../notebook/output-meta.js';
import { testMessages } from './test-messages.js';

export const TEST_CONTROLLER_ID = 'ptc-playground.tests';
// not contributed (no palette entry): the tree and the latest outcomes, for scripts and the real-VS-Code suite
export const TEST_STATE_COMMAND = 'ptcPlayground.testExplorerState';

export interface TestExplorerState {
  items: {
    id: string;
    label: string;
    uri: string;
    error?: string;
    children: { id: string; label: string; uri: string; line: number | null }[];
  }[];
  // test id → its latest outcome in this window
  results: Record<string, 'passed' | 'failed' | 'skipped' | 'errored'>;
}

export interface TestExplorerDeps {
  log: Logger;
  controller: PtcNotebookController;
  approvals: RuntimePathApprovals;
}

interface CellTest {
  file: string;
  index: number;
  language: Language;
}

// The Testing API's view of the workspace: every `.ptcnb` is a test file, every code cell with an expectation a test
// (gutter icons in open notebooks). Run replays each test from its cassette exactly like `ptc test` (the runtime's
// runTestSuite); Debug runs it in the notebook editor instead, so the result view shows the whole run and its mismatch.
export class PtcTestExplorer implements vscode.Disposable {
  readonly #tests: vscode.TestController;
  readonly #deps: TestExplorerDeps;
  readonly #cells = new WeakMap<vscode.TestItem, CellTest>();
  readonly #disposables: vscode.Disposable[] = [];
  readonly #results = new Map<string, TestExplorerState['results'][string]>();

  constructor(deps: TestExplorerDeps) {
    this.#deps = deps;
    const tests = vscode.tests.createTestController(TEST_CONTROLLER_ID, vscode.l10n.t('PTC Playground notebooks'));
    this.#tests = tests;
    tests.resolveHandler = async (item) => {
      if (item === undefined) await this.refreshAll();
    };
    tests.refreshHandler = () => this.refreshAll();
    tests.createRunProfile(
      vscode.l10n.t('Replay from cassettes'),
      vscode.TestRunProfileKind.Run,
      (request, token) => this.#run(request, token),
      true,
    );
    tests.createRunProfile(
      vscode.l10n.t('Run in the notebook'),
      vscode.TestRunProfileKind.Debug,
      (request, token) => this.#debug(request, token),
      true,
    );
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.ptcnb');
    this.#disposables.push(
      tests,
      watcher,
      watcher.onDidCreate((uri) => void this.#refreshFile(uri)),
      watcher.onDidChange((uri) => void this.#refreshFile(uri)),
      watcher.onDidDelete((uri) => tests.items.delete(uri.toString())),
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.#refreshOpen(nb)),
      vscode.workspace.onDidCloseNotebookDocument((nb) => void this.#refreshFile(nb.uri)),
      // a cell accepted, edited or added changes the tests of that notebook
      vscode.commands.registerCommand(TEST_STATE_COMMAND, () => this.state()),
      vscode.workspace.onDidChangeNotebookDocument((event) => {
        if (event.contentChanges.length > 0 || event.cellChanges.some((c) => c.metadata !== undefined))
          this.#refreshOpen(event.notebook);
      }),
    );
  }

  // Finds every notebook of the workspace (dependencies and dot-folders left out, as `ptc test` does).
  async refreshAll(): Promise<void> {
    const files = await vscode.workspace.findFiles('**/*.ptcnb', '{**/node_modules/**,**/.*/**}');
    const seen = new Set(files.map((f) => f.toString()));
    this.#tests.items.forEach((item) => {
      if (!seen.has(item.id)) this.#tests.items.delete(item.id);
    });
    await Promise.all(files.map((uri) => this.#refreshFile(uri)));
  }

  async state(): Promise<TestExplorerState> {
    await this.refreshAll();
    const items: TestExplorerState['items'] = [];
    this.#tests.items.forEach((item) => {
      const children: TestExplorerState['items'][number]['children'] = [];
      item.children.forEach((child) =>
        children.push({
          id: child.id,
          label: child.label,
          uri: child.uri?.toString() ?? '',
          line: child.range?.start.line ?? null,
        }),
      );
      items.push({
        id: item.id,
        label: item.label,
        uri: item.uri?.toString() ?? '',
        ...(typeof item.error === 'string' ? { error: item.error } : {}),
        children,
      });
    });
    items.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    return { items, results: Object.fromEntries(this.#results) };
  }

  async #refreshFile(uri: vscode.Uri): Promise<void> {
    const open = vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === uri.toString());
    if (open !== undefined) return this.#refreshOpen(open);
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      this.#tests.items.delete(uri.toString());
      return;
    }
    const parsed = parseNotebook(text);
    const item = this.#fileItem(uri);
    if (!parsed.ok) {
      item.error = vscode.l10n.t('Not a readable notebook: {0}', parsed.problems[0]?.message ?? '?');
      item.children.replace([]);
      return;
    }
    item.error = undefined;
    this.#setChildren(item, uri, parsed.notebook, undefined);
  }

  #refreshOpen(notebook: vscode.NotebookDocument): void {
    if (notebook.notebookType !== NOTEBOOK_TYPE || notebook.uri.scheme !== 'file') return;
    const item = this.#fileItem(notebook.uri);
    item.error = undefined;
    this.#setChildren(item, notebook.uri, notebookFileOf(notebook), notebook);
  }

  #fileItem(uri: vscode.Uri): vscode.TestItem {
    const existing = this.#tests.items.get(uri.toString());
    if (existing !== undefined) return existing;
    const item = this.#tests.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri), uri);
    this.#tests.items.add(item);
    return item;
  }

  // Cells of an open notebook point at their own editors (gutter icons); a closed notebook's at the file.
  #setChildren(
    item: vscode.TestItem,
    uri: vscode.Uri,
    notebook: NotebookFile,
    open: vscode.NotebookDocument | undefined,
  ): void {
    const children = testCells(notebook).map(({ index, cell }) => {
      const cellUri = open?.cellAt(index).document.uri;
      const id = `${uri.toString()}#${cell.metadata?.id ?? `index-${index}`}`;
      const target = cellUri ?? uri;
      // the same item while it points at the same place: a running test keeps reporting to it
      const existing = item.children.get(id);
      const label = testTitle(cell, index);
      const child =
        existing?.uri?.toString() === target.toString() ? existing : this.#tests.createTestItem(id, label, target);
      child.label = label;
      if (cellUri !== undefined) child.range = new vscode.Range(0, 0, 0, 0);
      // the cell's number and id stay findable (`ptc test` and JUnit name a test by its id)
      const where = `cell ${index + 1}${cell.metadata?.id === undefined ? '' : ` · ${cell.metadata.id}`}`;
      child.description =
        cell.metadata?.expect?.skip === undefined
          ? `${cell.language} · ${where}`
          : vscode.l10n.t('{0}, skipped', `${cell.language} · ${where}`);
      this.#cells.set(child, { file: uri.fsPath, index, language: cell.language });
      return child;
    });
    item.children.replace(children);
    // a notebook without test cells is not a test suite: it does not clutter the Test Explorer
    if (children.length === 0) this.#tests.items.delete(item.id);
  }

  // The selected tests, as cells; a notebook item stands for all of its cells.
  #selected(request: vscode.TestRunRequest): vscode.TestItem[] {
    const roots: vscode.TestItem[] = [];
    if (request.include === undefined) this.#tests.items.forEach((item) => roots.push(item));
    else roots.push(...request.include);
    const excluded = new Set(request.exclude ?? []);
    const out: vscode.TestItem[] = [];
    for (const root of roots) {
      if (excluded.has(root)) continue;
      if (this.#cells.has(root)) out.push(root);
      else root.children.forEach((child) => (excluded.has(child) ? undefined : out.push(child)));
    }
    return out;
  }

  async #run(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const items = this.#selected(request);
    const run = this.#tests.createTestRun(request);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort(new Error('cancelled from the Test Explorer')));
    const byKey = new Map<string, vscode.TestItem>();
    for (const item of items) {
      const cell = this.#cells.get(item) as CellTest;
      byKey.set(`${cell.file}\0${cell.index}`, item);
      run.enqueued(item);
    }
    const files = [...new Set(items.map((item) => (this.#cells.get(item) as CellTest).file))].sort();
    let runtime: ReturnType<typeof createRuntime> | undefined;
    try {
      if (!vscode.workspace.isTrusted) {
        for (const item of items)
          run.errored(
            item,
            new vscode.TestMessage(vscode.l10n.t('Tests do not run in Restricted Mode: a bindings module is code.')),
          );
        return;
      }
      const options = await this.#runtimeOptions(files, items);
      if (typeof options === 'string') {
        for (const item of items) run.errored(item, new vscode.TestMessage(options));
        return;
      }
      runtime = createRuntime({ spares: 1, ...options });
      const own = runtime;
      const { config } = readConfig();
      const suite = await runTestSuite({
        notebooks: files,
        session: {
          runtimeFor: () => own,
          // the same default module as the notebook's cells get
          defaultBindings: (notebookDir) => defaultBindingsFor(vscode.Uri.file(notebookDir)),
          bindingsLog: (bindingsPath) => (entry) =>
            this.#deps.log.info(`[bindings ${path.basename(bindingsPath ?? '')}] ${entry.text}`),
        },
        limits: settingsLimits(config),
        signal: abort.signal,
        select: (file, index) => byKey.has(`${file}\0${index}`),
        notebookSource: (file) => {
          const open = vscode.workspace.notebookDocuments.find(
            (nb) => nb.uri.scheme === 'file' && nb.uri.fsPath === file,
          );
          return open === undefined ? undefined : notebookFileOf(open);
        },
        onCellStart: (file, index) => {
          const item = byKey.get(`${file}\0${index}`);
          if (item !== undefined) run.started(item);
        },
        onCellDone: (cell) => {
          const item = byKey.get(`${cell.notebook}\0${cell.index}`);
          if (item !== undefined) this.#report(run, item, cell);
        },
        onWarning: (file, index, message) =>
          this.#deps.log.warn(`${vscode.workspace.asRelativePath(file)} cell ${index + 1}: ${message}`),
      });
      for (const notebook of suite.notebooks) {
        if (notebook.problem === undefined) continue;
        for (const item of items) {
          if ((this.#cells.get(item) as CellTest).file !== notebook.notebook) continue;
          this.#results.set(item.id, 'errored');
          run.errored(item, new vscode.TestMessage(notebook.problem));
        }
      }
      this.#deps.log.info(
        `Test Explorer: ${suite.passed} passed, ${suite.failed} failed${suite.skipped > 0 ? `, ${suite.skipped} skipped` : ''}`,
      );
    } catch (error) {
      this.#deps.log.error('a test run failed unexpectedly', error);
      for (const item of items) run.errored(item, new vscode.TestMessage(String(error)));
    } finally {
      cancel.dispose();
      await runtime?.dispose();
      run.end();
    }
  }

  #report(run: vscode.TestRun, item: vscode.TestItem, cell: CellTestResult): void {
    this.#results.set(item.id, cell.status);
    if (cell.status === 'skipped') {
      run.skipped(item);
      return;
    }
    const location =
      item.range === undefined || item.uri === undefined ? undefined : new vscode.Location(item.uri, item.range);
    if (cell.status === 'passed') run.passed(item, cell.durationMs);
    else run.failed(item, testMessages(cell, location), cell.durationMs);
  }

  // Interpreter paths from settings, approved like a cell run's (the same prompt, once).
  async #runtimeOptions(files: readonly string[], items: readonly vscode.TestItem[]): Promise<RuntimeOptions | string> {
    const languages = new Set<Language>(items.map((item) => (this.#cells.get(item) as CellTest).language));
    const options: RuntimeOptions = {};
    const scope = vscode.Uri.file(files[0] ?? '.');
    for (const language of languages) {
      const approval = await this.#deps.approvals.approve(language, scope);
      if (!approval.ok) return approval.message;
      if (approval.paths.nodePath !== undefined) options.nodePath = approval.paths.nodePath;
      if (approval.paths.pythonPath !== undefined) options.pythonPath = approval.paths.pythonPath;
    }
    return options;
  }

  // Debug: each test runs in its notebook editor with the same offline, deterministic plan, so the renderer shows the
  // run, its timeline and its mismatch (no debugger attaches to the sandboxed child).
  async #debug(request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const items = this.#selected(request);
    const run = this.#tests.createTestRun(request);
    try {
      for (const item of items) {
        if (token.isCancellationRequested) break;
        const test = this.#cells.get(item) as CellTest;
        run.started(item);
        const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(test.file));
        const editor = await vscode.window.showNotebookDocument(notebook, { preserveFocus: true });
        const cell = notebook.cellAt(test.index);
        editor.revealRange(
          new vscode.NotebookRange(test.index, test.index + 1),
          vscode.NotebookEditorRevealType.InCenterIfOutsideViewport,
        );
        const ran = await this.#deps.controller.executeWithOverride(cell, {
          force: { mode: 'replay' },
          deterministic: true,
        });
        const meta = [...cell.outputs]
          .reverse()
          .map((o) => outputMetaOf(o.metadata))
          .find((m) => m !== undefined && m.kind !== 'stream');
        if (!ran || meta === undefined)
          run.errored(item, new vscode.TestMessage(vscode.l10n.t('The cell did not run.')));
        else if (meta.kind === 'problem') run.failed(item, new vscode.TestMessage(meta.message));
        else if (meta.kind === 'result' && meta.expectation === 'passed') run.passed(item, meta.durationMs);
        else
          run.failed(
            item,
            new vscode.TestMessage(vscode.l10n.t('The run does not match the expectation: see the cell output.')),
            meta.kind === 'result' ? meta.durationMs : undefined,
          );
      }
    } finally {
      run.end();
    }
  }

  dispose(): void {
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}

// The notebook as the editor has it (unsaved edits included), in the file model the runtime reads.
function notebookFileOf(notebook: vscode.NotebookDocument): NotebookFile {
  const data = new vscode.NotebookData(
    notebook.getCells().map((cell) => {
      const out = new vscode.NotebookCellData(cell.kind, cell.document.getText(), cell.document.languageId);
      out.metadata = { ...cell.metadata };
      return out;
    }),
  );
  data.metadata = { ...notebook.metadata };
  return fromNotebookData(data);
}
