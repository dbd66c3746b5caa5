import path from 'node:path';
import * as vscode from 'vscode';
import {
  notebookBindingsPath,
  openNotebookSession,
  type BindingsHostStatus,
  type DescribeOutcome,
  type RuntimeProvider,
  type Session,
} from '../../runtime/index.js';
import { defaultBindingsFor } from './default-bindings.js';
import { CONFIG_SECTION, NOTEBOOK_TYPE } from '../constants.js';
import type { Logger } from '../log/logger.js';
import { notebookPlace } from '../notebook/locations.js';

interface Entry {
  session: Session;
  bindingsPath: string | undefined;
}

// The status of one notebook's bindings host, for the status bar.
export interface NotebookBindingsStatus {
  notebook: vscode.NotebookDocument;
  status: BindingsHostStatus;
}

// One session per open notebook (a kernel for its tools): its own bindings host, started on first use, restarted
// when the module file changes, stopped with its MCP servers when the notebook closes.
// how long a host must stay idle before the status bar says "ready" again
const READY_SETTLE_MS = 300;

export class SessionService implements vscode.Disposable {
  readonly #log: Logger;
  readonly #sessions = new Map<vscode.NotebookDocument, Entry>();
  // a pending "ready" per notebook, told only if the host stays ready for READY_SETTLE_MS
  readonly #settling = new Map<vscode.NotebookDocument, ReturnType<typeof setTimeout>>();
  readonly #watchers = new Map<string, vscode.FileSystemWatcher>();
  readonly #onDidChange = new vscode.EventEmitter<string>();
  // a bindings module changed (IntelliSense and the model view refresh)
  readonly onDidChangeBindings = this.#onDidChange.event;
  readonly #onDidChangeStatus = new vscode.EventEmitter<NotebookBindingsStatus>();
  readonly onDidChangeStatus = this.#onDidChangeStatus.event;
  readonly #disposables: vscode.Disposable[] = [];
  #closed = false;

  // the runtime a notebook's runs use (the runtime pool's choice for the interpreter paths approved for it)
  readonly #runtimeFor: (notebook: vscode.NotebookDocument) => RuntimeProvider;

  constructor(log: Logger, runtimeFor: (notebook: vscode.NotebookDocument) => RuntimeProvider) {
    this.#log = log;
    this.#runtimeFor = runtimeFor;
    this.#disposables.push(
      this.#onDidChange,
      this.#onDidChangeStatus,
      vscode.workspace.onDidOpenNotebookDocument(() => this.#sync()),
      vscode.workspace.onDidCloseNotebookDocument((notebook) => {
        this.#close(notebook);
        this.#sync();
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.metadata !== undefined) this.#sync();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${CONFIG_SECTION}.defaultBindings`)) this.#sync();
      }),
      // nothing is watched (or imported) before the workspace is trusted
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.#sync()),
    );
    this.#sync();
  }

  // The bindings module path of a notebook, if it has one.
  pathFor(notebook: vscode.NotebookDocument): string | undefined {
    const where = placeOf(notebook);
    return where === undefined
      ? undefined
      : notebookBindingsPath({
          metadataBindings: notebook.metadata.bindings,
          notebookDir: where.dir,
          ...where.defaults,
        });
  }

  // The notebook's session; a new one when the notebook now names another bindings module.
  sessionFor(notebook: vscode.NotebookDocument): Session {
    const bindingsPath = this.pathFor(notebook);
    const existing = this.#sessions.get(notebook);
    if (existing !== undefined && existing.bindingsPath === bindingsPath) return existing.session;
    if (existing !== undefined) this.#close(notebook);
    const label = bindingsPath === undefined ? 'bindings' : `bindings ${path.basename(bindingsPath)}`;
    const where = placeOf(notebook);
    // a notebook off the disk runs no cells and so has no bindings: its session only answers status questions
    const session = openNotebookSession({
      notebookDir: where?.dir ?? path.dirname(notebook.uri.fsPath),
      metadataBindings: where === undefined ? undefined : notebook.metadata.bindings,
      ...(where === undefined ? {} : { defaultBindings: () => where.defaults }),
      runtimeFor: this.#runtimeFor(notebook),
      // the bindings' own output: labelled, in this extension's log channel, never in a cell
      bindingsLog: () => (entry) =>
        entry.stream === 'stderr'
          ? this.#log.warn(`[${label}] ${entry.text}`)
          : this.#log.info(`[${label}] ${entry.text}`),
      onBindingsStatus: (status) => {
        // a loop of quick calls flips busy ⇄ ready with every report (20 times a second): those flips are debug
        // noise, and "ready" waits a moment so the status bar does not flicker (or flood the window with updates)
        const flip = status.state === 'busy' || status.state === 'ready';
        const detail = status.detail === undefined ? '' : `: ${status.detail}`;
        if (flip) this.#log.debug(`${label} host ${status.state}${detail}`);
        else this.#log.info(`${label} host ${status.state}${detail}`);
        clearTimeout(this.#settling.get(notebook));
        this.#settling.delete(notebook);
        if (status.state !== 'ready') this.#onDidChangeStatus.fire({ notebook, status });
        else
          this.#settling.set(
            notebook,
            setTimeout(() => {
              this.#settling.delete(notebook);
              this.#onDidChangeStatus.fire({ notebook, status });
            }, READY_SETTLE_MS),
          );
      },
    });
    this.#sessions.set(notebook, { session, bindingsPath });
    return session;
  }

  // The notebook's bindings host status (stopped before its first use), or undefined without a bindings module.
  statusFor(notebook: vscode.NotebookDocument): BindingsHostStatus | undefined {
    const bindingsPath = this.pathFor(notebook);
    if (bindingsPath === undefined) return undefined;
    const entry = this.#sessions.get(notebook);
    return entry?.bindingsPath === bindingsPath
      ? entry.session.bindings?.status
      : { state: 'stopped', module: bindingsPath };
  }

  // The module's declarations (SDK, completions); never rejects.
  async describe(notebook: vscode.NotebookDocument): Promise<DescribeOutcome | undefined> {
    if (this.pathFor(notebook) === undefined) return undefined;
    return this.sessionFor(notebook).describe({ timeoutMs: 30_000 });
  }

  // Restarts the notebook's bindings host (a fresh import of the module, fresh MCP servers).
  async restart(notebook: vscode.NotebookDocument): Promise<boolean> {
    const host = this.sessionFor(notebook).bindings;
    if (host === undefined) return false;
    const ready = await host.restart('was restarted');
    if (!ready.ok) this.#log.warn(`bindings module problem: ${ready.message}`);
    this.#onDidChange.fire(host.modulePath);
    return true;
  }

  // Fails the calls the notebook's bindings host is running; resolves with how many.
  async interrupt(notebook: vscode.NotebookDocument): Promise<number> {
    return (await this.#sessions.get(notebook)?.session.bindings?.interrupt()) ?? 0;
  }

  #close(notebook: vscode.NotebookDocument): void {
    const entry = this.#sessions.get(notebook);
    if (entry === undefined) return;
    this.#sessions.delete(notebook);
    void entry.session.dispose().catch((error: unknown) => this.#log.warn('stopping a bindings host failed', error));
  }

  #sync(): void {
    if (!vscode.workspace.isTrusted || this.#closed) return;
    const wanted = new Set<string>();
    for (const notebook of vscode.workspace.notebookDocuments) {
      if (notebook.notebookType !== NOTEBOOK_TYPE) continue;
      const file = this.pathFor(notebook);
      if (file !== undefined) wanted.add(file);
    }
    for (const [file, watcher] of this.#watchers) {
      if (wanted.has(file)) continue;
      watcher.dispose();
      this.#watchers.delete(file);
    }
    for (const file of wanted) {
      if (this.#watchers.has(file)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)),
      );
      watcher.onDidChange(() => this.#changed(file, 'changed'));
      watcher.onDidCreate(() => this.#changed(file, 'created'));
      watcher.onDidDelete(() => this.#changed(file, 'deleted'));
      this.#watchers.set(file, watcher);
      this.#log.debug(`watching bindings module ${file}`);
    }
  }

  // An edited module restarts the hosts that loaded it now, so a broken edit shows in the log at once and no old
  // version of the module lives on anywhere.
  #changed(file: string, why: string): void {
    this.#log.info(`bindings module ${why}: ${file}; its host restarts`);
    const restarts: Promise<unknown>[] = [];
    for (const entry of this.#sessions.values()) {
      const host = entry.session.bindings;
      if (entry.bindingsPath !== file || host === undefined || host.status.state === 'stopped') continue;
      restarts.push(
        host.restartIfChanged('was restarted because the bindings module changed').then((ready) => {
          if (!ready.ok) this.#log.warn(`bindings module problem: ${ready.message}`);
        }),
      );
    }
    void Promise.all(restarts).then(() => this.#onDidChange.fire(file));
  }

  // Stops every session's bindings host (and MCP servers); deactivate() awaits it.
  async shutdown(): Promise<void> {
    this.#closed = true;
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(all.map((entry) => entry.session.dispose()));
  }

  dispose(): void {
    for (const timer of this.#settling.values()) clearTimeout(timer);
    this.#settling.clear();
    for (const watcher of this.#watchers.values()) watcher.dispose();
    this.#watchers.clear();
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}

// Where a notebook lives and the default bindings module its folder's settings name; undefined off the disk.
function placeOf(
  notebook: vscode.NotebookDocument,
): { dir: string; defaults: ReturnType<typeof defaultBindingsFor> } | undefined {
  const defaults = defaultBindingsFor(notebook.uri);
  const place = notebookPlace({
    scheme: notebook.uri.scheme,
    fsPath: notebook.uri.fsPath,
    workspaceFolder: defaults.workspaceFolder,
  });
  return place === undefined ? undefined : { dir: place.dir, defaults };
}
