import path from 'node:path';
import * as vscode from 'vscode';
import { renderSdk, type Language } from '../../runtime/index.js';
import { withNotebookLearning } from '../testing/learned-outputs.js';
import type { SessionService } from '../bindings/session-service.js';
import { SDK_SCHEME } from '../constants.js';
import type { Logger } from '../log/logger.js';

interface SdkQuery {
  notebook: string;
  language: Language;
}

function parseQuery(uri: vscode.Uri): SdkQuery | undefined {
  const params = new URLSearchParams(uri.query);
  const notebook = params.get('notebook');
  const language = params.get('language');
  if (notebook === null || (language !== 'typescript' && language !== 'python')) return undefined;
  return { notebook, language };
}

// Read-only `ptc-sdk:` documents: the bindings API text a model is given, refreshed when the module changes.
export class SdkDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly #bindings: SessionService;
  readonly #log: Logger;
  readonly #onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#onDidChange.event;
  readonly #disposables: vscode.Disposable[] = [];

  constructor(bindings: SessionService, log: Logger) {
    this.#bindings = bindings;
    this.#log = log;
    this.#disposables.push(
      this.#onDidChange,
      vscode.workspace.registerTextDocumentContentProvider(SDK_SCHEME, this),
      bindings.onDidChangeBindings(() => this.#refreshAll()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.#refreshAll()),
    );
  }

  uriFor(notebook: vscode.NotebookDocument, language: Language): vscode.Uri {
    const stem = path.posix.basename(notebook.uri.path).replace(/\.ptcnb$/, '');
    const query = new URLSearchParams({ notebook: notebook.uri.toString(), language }).toString();
    return vscode.Uri.from({ scheme: SDK_SCHEME, path: `/${stem} (${language}) model view.md`, query });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const query = parseQuery(uri);
    const notebook =
      query === undefined
        ? undefined
        : vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === query.notebook);
    if (query === undefined || notebook === undefined)
      return `${vscode.l10n.t('The notebook of this view is not open any more.')}\n`;
    // bindings modules are code: nothing is imported in Restricted Mode
    if (!vscode.workspace.isTrusted)
      return `${vscode.l10n.t('Restricted Mode: the bindings module is not loaded until the workspace is trusted.')}\n`;
    const file = this.#bindings.pathFor(notebook);
    if (file === undefined)
      return `${renderSdk({ namespaces: {} }, query.language).text}\n${vscode.l10n.t('(This notebook has no bindings module: set "bindings" in its metadata or ptcPlayground.defaultBindings.)')}\n`;
    const described = await this.#bindings.describe(notebook);
    if (described === undefined || !described.ok) {
      const message = described?.message ?? file;
      this.#log.warn(`what the model sees: ${message}`);
      return `${vscode.l10n.t('The bindings module could not be loaded:')}\n\n\`\`\`text\n${message}\n\`\`\`\n`;
    }
    return renderSdk(await withNotebookLearning(notebook, described.module, this.#log), query.language).text;
  }

  // `ptcPlayground.showModelView`: opens the `run_code` description and SDK beside the notebook, for the selected
  // cell's language.
  async show(notebook: vscode.NotebookDocument, language: Language): Promise<void> {
    const document = await vscode.workspace.openTextDocument(this.uriFor(notebook, language));
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    // a rendered preview (what the model reads is markdown); the source view only where the preview is unavailable
    try {
      await vscode.commands.executeCommand('markdown.showPreviewToSide', document.uri);
    } catch (error) {
      this.#log.debug('markdown preview unavailable; showing the model view as text', error);
      await vscode.window.showTextDocument(document, {
        viewColumn: vscode.ViewColumn.Beside,
        preview: true,
        preserveFocus: false,
      });
    }
  }

  #refreshAll(): void {
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === SDK_SCHEME) this.#onDidChange.fire(document.uri);
    }
  }

  dispose(): void {
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
