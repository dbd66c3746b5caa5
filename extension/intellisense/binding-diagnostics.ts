import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../constants.js';
import { argumentProblems } from './argument-check.js';
import { callArgument } from './argument-literals.js';
import { bindingReferences, type BindingReference } from './binding-references.js';
import type { GlobalInfo } from './completion-model.js';

const SOURCE = 'PTC Playground';
const DEBOUNCE_MS = 300;

export interface BindingProblem {
  start: number;
  end: number;
  message: string;
  code: 'unknown-binding' | 'argument-shape';
}

// What a cell's calls to its notebook's bindings would fail on at run time, found before running: a function the
// bindings do not declare (TypeError in TypeScript, AttributeError in Python), and literal arguments the function's
// input schema refuses. Nothing else is reported.
export function bindingProblems(
  text: string,
  language: 'typescript' | 'python',
  globals: readonly GlobalInfo[],
): BindingProblem[] {
  const byGlobal = new Map(globals.map((g) => [g.global, g]));
  return bindingReferences(text, language, [...byGlobal.keys()]).flatMap((ref): BindingProblem[] => {
    const ns = byGlobal.get(ref.global);
    if (ns === undefined) return [];
    const fn = ns.functions.find((f) => f.name === ref.name);
    if (fn !== undefined) return shapeProblems(text, language, ref, fn.input);
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
        code: 'unknown-binding',
      },
    ];
  });
}

// The literal argument of the call at a reference, against the function's input schema.
function shapeProblems(
  text: string,
  language: 'typescript' | 'python',
  ref: BindingReference,
  input: Record<string, unknown> | undefined,
): BindingProblem[] {
  if (input === undefined) return [];
  // after the name: `tools.name(`, or `tools["name"](` past the closing quote and bracket
  const call = /^(?:["']\s*\])?\s*\(/.exec(text.slice(ref.end));
  if (call === null) return [];
  const literal = callArgument(text, ref.end + call[0].length - 1, language);
  if (literal === undefined) return [];
  return argumentProblems(literal, input).map((p) => ({
    start: p.start,
    end: p.end,
    message: vscode.l10n.t('{0}.{1}: {2}.', ref.global, ref.name, p.message),
    code: 'argument-shape',
  }));
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
    // VS Code's TypeScript extension reports no semantic diagnostics for notebook cells (only syntax): the SDK's
    // precise types reach completions and hovers, but a wrong argument is flagged here, in both languages
    const problems = bindingProblems(document.getText(), language, globals);
    this.#collection.set(
      document.uri,
      problems.map((p) => {
        const diagnostic = new vscode.Diagnostic(
          new vscode.Range(document.positionAt(p.start), document.positionAt(p.end)),
          p.message,
          vscode.DiagnosticSeverity.Error,
        );
        diagnostic.source = SOURCE;
        diagnostic.code = p.code;
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
