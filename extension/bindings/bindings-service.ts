import path from 'node:path';
import * as vscode from 'vscode';
import type { BindingsCache, BindingsLease } from '../../runtime/notebook/bindings-cache.js';
import { readConfig } from '../config/config.js';
import { CONFIG_SECTION, NOTEBOOK_TYPE } from '../constants.js';
import type { Logger } from '../log/logger.js';
import { bindingsPathFor, notebookPlace } from '../notebook/locations.js';

// Tracks which bindings module each open notebook uses, watches those files, and reloads them on change.
export class BindingsService implements vscode.Disposable {
  readonly #cache: BindingsCache;
  readonly #log: Logger;
  readonly #watchers = new Map<string, vscode.FileSystemWatcher>();
  readonly #onDidChange = new vscode.EventEmitter<string>();
  readonly onDidChangeBindings = this.#onDidChange.event;
  readonly #disposables: vscode.Disposable[] = [];

  constructor(cache: BindingsCache, log: Logger) {
    this.#cache = cache;
    this.#log = log;
    this.#disposables.push(
      this.#onDidChange,
      vscode.workspace.onDidOpenNotebookDocument(() => this.#sync()),
      vscode.workspace.onDidCloseNotebookDocument(() => this.#sync()),
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
    const workspaceFolder = vscode.workspace.getWorkspaceFolder(notebook.uri)?.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const place = notebookPlace({ scheme: notebook.uri.scheme, fsPath: notebook.uri.fsPath, workspaceFolder });
    if (place === undefined) return undefined;
    return bindingsPathFor({
      metadataBindings: notebook.metadata.bindings,
      notebookDir: place.dir,
      defaultBindings: readConfig(notebook.uri).config.defaultBindings,
      workspaceFolder,
    });
  }

  // Loads (or reuses) a notebook's bindings module; never rejects.
  async load(notebook: vscode.NotebookDocument): Promise<BindingsLease | undefined> {
    const file = this.pathFor(notebook);
    return file === undefined ? undefined : this.#cache.load(file);
  }

  // Drops every cached module so the next run and the IntelliSense refresh import them afresh.
  reloadAll(): void {
    this.#cache.invalidate();
    for (const file of this.#watchers.keys()) this.#changed(file, 'reload requested');
  }

  #sync(): void {
    if (!vscode.workspace.isTrusted) return;
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
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      watcher.onDidChange(() => this.#changed(file, 'changed'));
      watcher.onDidCreate(() => this.#changed(file, 'created'));
      watcher.onDidDelete(() => this.#changed(file, 'deleted'));
      this.#watchers.set(file, watcher);
      this.#log.debug(`watching bindings module ${file}`);
    }
  }

  #changed(file: string, why: string): void {
    this.#cache.invalidate(file);
    this.#log.info(`bindings module ${why}: ${file}; cells and IntelliSense use the new version`);
    // load now so a broken edit shows up in the log right away, not only at the next run
    void this.#cache.load(file).then((loaded) => {
      if (!loaded.ok) this.#log.warn(`bindings module problem: ${loaded.message}`);
      this.#onDidChange.fire(file);
    });
  }

  dispose(): void {
    for (const watcher of this.#watchers.values()) watcher.dispose();
    this.#watchers.clear();
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
