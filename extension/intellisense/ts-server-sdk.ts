import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { renderSdk } from '../../runtime/index.js';
import type { SessionService } from '../bindings/session-service.js';
import { NOTEBOOK_TYPE } from '../constants.js';
import type { Logger } from '../log/logger.js';
import { TS_PLUGIN_NAME } from '../ts-plugin/notebook-program.js';

const TS_EXTENSION_ID = 'vscode.typescript-language-features';
// declaration files nobody has rewritten for this long belong to no open window any more
const STALE_MS = 7 * 24 * 3600_000;

interface TypeScriptApi {
  configurePlugin(pluginId: string, configuration: unknown): void;
}

// The file name of a declaration text: its content hash, so a file once written never changes under a TS server.
export function declarationFileName(declarations: string): string {
  return `sdk-${createHash('sha256').update(declarations).digest('hex').slice(0, 20)}.d.ts`;
}

// Gives VS Code's TS server (through ptc-notebook-ts-plugin) the bindings SDK of the notebook being edited, so
// TypeScript cells get the TS server's own completions, hovers and signature help for it.
export class TsServerSdk implements vscode.Disposable {
  readonly #bindings: SessionService;
  readonly #log: Logger;
  readonly #folder: vscode.Uri;
  readonly #disposables: vscode.Disposable[] = [];
  #notebook: vscode.NotebookDocument | undefined;
  #generation = 0;
  // whether the plugin is installed and the TypeScript extension's API answered (so the plugin gets configured)
  readonly available: Promise<boolean>;

  constructor(options: { bindings: SessionService; log: Logger; storage: vscode.Uri; extension: vscode.Uri }) {
    this.#bindings = options.bindings;
    this.#log = options.log;
    this.#folder = vscode.Uri.joinPath(options.storage, 'typescript');
    // the TS server finds the plugin in the extension's node_modules, which only the packaged VSIX has
    const plugin = vscode.Uri.joinPath(options.extension, 'node_modules', TS_PLUGIN_NAME, 'index.js');
    const installed = Promise.resolve(vscode.workspace.fs.stat(plugin)).then(
      () => true,
      () => false,
    );
    const api = installed.then(async (yes) => (yes ? typeScriptApi() : undefined));
    this.available = api.then((a) => a !== undefined);
    this.#disposables.push(
      vscode.window.onDidChangeActiveNotebookEditor((editor) => {
        if (editor?.notebook.notebookType !== NOTEBOOK_TYPE || editor.notebook === this.#notebook) return;
        this.#notebook = editor.notebook;
        void this.#refresh(api);
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.notebook === this.#notebook && e.metadata !== undefined) void this.#refresh(api);
      }),
      this.#bindings.onDidChangeBindings(() => void this.#refresh(api)),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.#refresh(api)),
    );
    const active = vscode.window.activeNotebookEditor?.notebook;
    if (active?.notebookType === NOTEBOOK_TYPE) this.#notebook = active;
    void this.#prune().then(() => this.#refresh(api));
  }

  async #refresh(api: Promise<TypeScriptApi | undefined>): Promise<void> {
    const generation = ++this.#generation;
    const typescript = await api;
    if (typescript === undefined) return;
    const files = await this.#declarationFiles().catch((error: unknown) => {
      this.#log.warn('could not write the bindings SDK for TypeScript cells', error);
      return [];
    });
    // a newer refresh (another notebook, a changed module) started meanwhile: its answer wins
    if (generation !== this.#generation) return;
    typescript.configurePlugin(TS_PLUGIN_NAME, { declarationFiles: files });
  }

  async #declarationFiles(): Promise<string[]> {
    const notebook = this.#notebook;
    // bindings modules are code: nothing is imported for IntelliSense in Restricted Mode
    if (notebook === undefined || notebook.isClosed || !vscode.workspace.isTrusted) return [];
    const described = await this.#bindings.describe(notebook);
    if (described === undefined) return [];
    if (!described.ok) {
      this.#log.debug(`no bindings SDK for TypeScript cells of ${notebook.uri.path}: ${described.message}`);
      return [];
    }
    const declarations = renderSdk(described.module, 'typescript').declarations;
    const file = vscode.Uri.joinPath(this.#folder, declarationFileName(declarations));
    const exists = await vscode.workspace.fs.stat(file).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await vscode.workspace.fs.createDirectory(this.#folder);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(declarations));
    }
    return [file.fsPath];
  }

  // Deletes declaration files left by windows long closed (each window rewrites its own when it configures).
  async #prune(): Promise<void> {
    const entries = await vscode.workspace.fs.readDirectory(this.#folder).then(
      (e) => e,
      () => [],
    );
    for (const [name] of entries) {
      if (!name.endsWith('.d.ts')) continue;
      const file = vscode.Uri.joinPath(this.#folder, name);
      const stat = await vscode.workspace.fs.stat(file).then(
        (s) => s,
        () => undefined,
      );
      if (stat !== undefined && Date.now() - stat.mtime > STALE_MS)
        await vscode.workspace.fs.delete(file).then(undefined, () => undefined);
    }
  }

  dispose(): void {
    this.#generation += 1;
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}

// The TypeScript extension's API (version 0 has configurePlugin), or undefined when it is disabled or absent.
async function typeScriptApi(): Promise<TypeScriptApi | undefined> {
  const extension = vscode.extensions.getExtension<{ getAPI?: (version: 0) => unknown } | undefined>(TS_EXTENSION_ID);
  if (extension === undefined) return undefined;
  const exports = await Promise.resolve(extension.activate()).catch(() => undefined);
  const api = exports?.getAPI?.(0);
  if (
    api === null ||
    typeof api !== 'object' ||
    typeof (api as { configurePlugin?: unknown }).configurePlugin !== 'function'
  )
    return undefined;
  return api as TypeScriptApi;
}
