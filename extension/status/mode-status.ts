import * as vscode from 'vscode';
import { COMMANDS, NOTEBOOK_TYPE } from '../constants.js';
import { readConfig } from '../config/config.js';

// The window status bar item showing the active notebook's binding mode (mock/live); click to switch.
export class ModeStatusItem implements vscode.Disposable {
  readonly #item = vscode.window.createStatusBarItem('ptcPlayground.mode', vscode.StatusBarAlignment.Right, 100);
  readonly #disposables: vscode.Disposable[] = [];

  constructor() {
    this.#item.name = vscode.l10n.t('PTC Playground binding mode');
    this.#item.command = COMMANDS.switchMode;
    this.#disposables.push(
      this.#item,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.refresh()),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.notebook === vscode.window.activeNotebookEditor?.notebook && e.metadata !== undefined) this.refresh();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('ptcPlayground.defaultMode')) this.refresh();
      }),
    );
    this.refresh();
  }

  refresh(): void {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    if (notebook?.notebookType !== NOTEBOOK_TYPE) {
      this.#item.hide();
      return;
    }
    const own: unknown = notebook.metadata.mode;
    const mode = own === 'live' || own === 'mock' ? own : readConfig(notebook.uri).config.defaultMode;
    this.#item.text =
      mode === 'live' ? `$(plug) ${vscode.l10n.t('Live bindings')}` : `$(beaker) ${vscode.l10n.t('Mock bindings')}`;
    this.#item.tooltip = new vscode.MarkdownString(
      mode === 'live'
        ? vscode.l10n.t('Cells call the **live** handlers of the bindings module. Click to switch to mock.')
        : vscode.l10n.t('Cells call the **mock** handlers of the bindings module. Click to switch to live.'),
    );
    this.#item.backgroundColor = mode === 'live' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.#item.show();
  }

  dispose(): void {
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
