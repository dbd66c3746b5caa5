import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../constants.js';
import { bindingReferences } from './binding-references.js';
import type { GlobalInfo } from './completion-model.js';

const SOURCE = 'PTC Playground';
const DEBOUNCE_MS = 300;

// The references of a cell to functions its notebook's bindings do not declare: the call would fail at run time
// (TypeError in TypeScript, AttributeError in Python), so it is an error before running. Nothing else is reported.
export function unknownBindingProblems(
  text: string,
  language: 'typescript' | 'python',
  globals: readonly GlobalInfo[],
): { start: number; end: number; message: string }[] {
  const byGlobal = new Map(globals.map((g) => [g.global, g]));
  return bindingReferences(text, language, [...byGlobal.keys()]).flatMap((ref) => {
    const ns = byGlobal.get(ref.global);
    if (ns === undefined || ns.functions.some((f) => f.name === ref.name)) return [];
    const known = ns.functions.map((f) => f.name);
    const shown = known.length === 0 ? '—' : `${known.slice(0, 12).join(', ')}${known.length > 12 ? ', …' : ''}`;
    return [
      {
        start: ref.start,
        end: ref.end,
        message: vscode.l10n.t(
          "{0}.{1} is not a function of this notebook's bindings ({0} has: {2}).",
          ref.global,
          ref.name,
          shown,
        ),
      },
    ];
  });
}

// Squiggles on TypeScript and Python cells of PTC notebooks for calls to bindings that do not exist, refreshed as the
// cell is edited and when the bindings module changes.
export class BindingDiagnostics implements vscode.Disposable {
  readonly #collection = vscode.languages.createDiagnosticCollection('ptc-bindings');
  readonly #globalsFor: (document: vscode.TextDocument) => Promise<GlobalInfo[]>;
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #disposables: vscode.Disposable[] = [];

  constructor(options: {
    globalsFor: (document: vscode.TextDocument) => Promise<GlobalInfo[]>;
    onDidChangeBindings: vscode.Event<unknown>;
  }) {
    this.#globalsFor = options.globalsFor;
    this.#disposables.push(
      this.#collection,
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.#checkNotebook(nb)),
      vscode.workspace.onDidChangeTextDocument((e) => this.#schedule(e.document)),
      // a cell added to an open notebook (typed, pasted, inserted by a task) opens a new text document
      vscode.workspace.onDidOpenTextDocument((document) => this.#schedule(document)),
      vscode.workspace.onDidChangeNotebookDocument((e) =>
        e.contentChanges.forEach((c) => c.addedCells.forEach((cell) => this.#schedule(cell.document))),
      ),
      vscode.workspace.onDidCloseNotebookDocument((nb) =>
        nb.getCells().forEach((c) => this.#collection.delete(c.document.uri)),
      ),
      // the module changed (tools added or removed): every open notebook's cells again, once the model is rebuilt
      options.onDidChangeBindings(() =>
        setTimeout(() => vscode.workspace.notebookDocuments.forEach((nb) => this.#checkNotebook(nb)), DEBOUNCE_MS),
      ),
    );
    for (const notebook of vscode.workspace.notebookDocuments) this.#checkNotebook(notebook);
  }

  #checkNotebook(notebook: vscode.NotebookDocument): void {
    if (notebook.notebookType !== NOTEBOOK_TYPE) return;
    for (const cell of notebook.getCells()) this.#schedule(cell.document);
  }

  #schedule(document: vscode.TextDocument): void {
    if (document.uri.scheme !== 'vscode-notebook-cell') return;
    const key = document.uri.toString();
    clearTimeout(this.#timers.get(key));
    this.#timers.set(
      key,
      setTimeout(() => {
        this.#timers.delete(key);
        void this.#check(document).catch(() => this.#collection.delete(document.uri));
      }, DEBOUNCE_MS),
    );
  }

  async #check(document: vscode.TextDocument): Promise<void> {
    const language = document.languageId;
    if (document.isClosed || (language !== 'typescript' && language !== 'python'))
      return this.#collection.delete(document.uri);
    const globals = await this.#globalsFor(document);
    const problems = unknownBindingProblems(document.getText(), language, globals);
    this.#collection.set(
      document.uri,
      problems.map((p) => {
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(document.positionAt(p.start), document.positionAt(p.end)),
          p.message,
          vscode.DiagnosticSeverity.Error,
        );
        diagnostic.source = SOURCE;
        diagnostic.code = 'unknown-binding';
        return diagnostic;
      }),
    );
  }

  // The diagnostics a cell has now (for tests and scripts).
  diagnosticsFor(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.#collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
