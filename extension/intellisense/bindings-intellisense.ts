import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../constants.js';
import type { SessionService } from '../bindings/session-service.js';
import type { Logger } from '../log/logger.js';
import { completionContext, completionModel, type GlobalInfo, memberAt, signatureLine } from './completion-model.js';

const PYTHON: vscode.DocumentSelector = [{ notebookType: NOTEBOOK_TYPE, language: 'python' }];
const TYPESCRIPT: vscode.DocumentSelector = [{ notebookType: NOTEBOOK_TYPE, language: 'typescript' }];

// Completions and hovers for the bindings in Python cells, refreshed whenever the module changes. TypeScript cells
// get them from VS Code's TS server (ts-server-sdk.ts gives it the SDK); these serve them only without that server.
export class BindingsIntelliSense implements vscode.CompletionItemProvider, vscode.HoverProvider, vscode.Disposable {
  readonly #bindings: SessionService;
  readonly #log: Logger;
  readonly #models = new Map<string, Promise<GlobalInfo[]>>();
  readonly #disposables: vscode.Disposable[] = [];

  constructor(bindings: SessionService, log: Logger) {
    this.#bindings = bindings;
    this.#log = log;
    this.#disposables.push(
      ...this.#register(PYTHON),
      bindings.onDidChangeBindings((file) => this.#models.delete(file)),
    );
  }

  // For TypeScript cells when VS Code's TypeScript extension is disabled or absent.
  serveTypeScript(): void {
    this.#disposables.push(...this.#register(TYPESCRIPT));
  }

  #register(selector: vscode.DocumentSelector): vscode.Disposable[] {
    return [
      vscode.languages.registerCompletionItemProvider(selector, this, '.', '[', '"', "'"),
      vscode.languages.registerHoverProvider(selector, this),
    ];
  }

  async provideCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
  ): Promise<vscode.CompletionItem[]> {
    const globals = await this.globalsFor(document);
    if (globals.length === 0) return [];
    const context = completionContext(document.lineAt(position.line).text.slice(0, position.character));
    if (context === undefined) return [];
    const python = document.languageId === 'python';
    if (context.kind === 'global') {
      return globals
        .filter((g) => g.global.startsWith(context.prefix))
        .map((g) => {
          const item = new vscode.CompletionItem(g.global, vscode.CompletionItemKind.Module);
          item.detail = vscode.l10n.t('bindings namespace ({0} functions)', g.functions.length);
          item.sortText = `0${g.global}`;
          return item;
        });
    }
    const ns = globals.find((g) => g.global === context.global);
    if (ns === undefined) return [];
    return ns.functions.map((fn) => {
      const item = new vscode.CompletionItem(fn.name, vscode.CompletionItemKind.Function);
      const declaration = fn.declaration[python ? 'python' : 'typescript'];
      item.detail = signatureLine(declaration);
      item.documentation = documentation(declaration, python);
      item.sortText = `0${fn.name}`;
      if (!context.bracket && !/^[A-Za-z_$][\w$]*$/.test(fn.name)) {
        // `tools.my-tool` is not valid: complete `.my` into `["my-tool"]` by replacing the dot too
        const start = position.translate(0, -(context.prefix.length + 1));
        item.range = new vscode.Range(start, position);
        item.insertText = `[${JSON.stringify(fn.name)}]`;
        item.filterText = `.${fn.name}`;
      }
      return item;
    });
  }

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    const line = document.lineAt(position.line).text;
    const at = memberAt(line, position.character);
    if (at === undefined) return undefined;
    const globals = await this.globalsFor(document);
    const fn = globals.find((g) => g.global === at.global)?.functions.find((f) => f.name === at.name);
    if (fn === undefined) return undefined;
    const python = document.languageId === 'python';
    return new vscode.Hover(
      documentation(fn.declaration[python ? 'python' : 'typescript'], python),
      new vscode.Range(position.line, at.start, position.line, at.end),
    );
  }

  // The bindings of the notebook holding `document` (empty in Restricted Mode or when the module does not load).
  async globalsFor(document: vscode.TextDocument): Promise<GlobalInfo[]> {
    // bindings modules are code: nothing is imported for IntelliSense in Restricted Mode
    if (!vscode.workspace.isTrusted) return [];
    const notebook = vscode.workspace.notebookDocuments.find(
      (nb) => nb.notebookType === NOTEBOOK_TYPE && nb.getCells().some((c) => c.document === document),
    );
    if (notebook === undefined) return [];
    const file = this.#bindings.pathFor(notebook);
    if (file === undefined) return [];
    let model = this.#models.get(file);
    if (model === undefined) {
      // the module's declarations come from the notebook's bindings host: its code never runs in this process
      model = this.#bindings.describe(notebook).then((described) => {
        if (described === undefined || !described.ok) {
          if (described !== undefined) this.#log.debug(`no IntelliSense for ${file}: ${described.message}`);
          this.#models.delete(file);
          return [];
        }
        return completionModel(described.module);
      });
      this.#models.set(file, model);
    }
    return model;
  }

  dispose(): void {
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}

// The SDK declaration (its doc comment carries the description) as a code block.
function documentation(declaration: string, python: boolean): vscode.MarkdownString {
  return new vscode.MarkdownString().appendCodeblock(declaration, python ? 'python' : 'typescript');
}
