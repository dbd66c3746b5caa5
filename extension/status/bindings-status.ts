import path from 'node:path';
import * as vscode from 'vscode';
import type { BindingsHostState, BindingsHostStatus } from '../../runtime/index.js';
import type { SessionService } from '../bindings/session-service.js';
import { COMMANDS, NOTEBOOK_TYPE } from '../constants.js';

const ICONS: Record<BindingsHostState, string> = {
  stopped: '$(circle-outline)',
  starting: '$(loading~spin)',
  ready: '$(pass)',
  busy: '$(sync~spin)',
  crashed: '$(error)',
  failed: '$(warning)',
};

function stateLabel(state: BindingsHostState): string {
  switch (state) {
    case 'stopped':
      return vscode.l10n.t('not started');
    case 'starting':
      return vscode.l10n.t('starting');
    case 'ready':
      return vscode.l10n.t('ready');
    case 'busy':
      return vscode.l10n.t('busy');
    case 'crashed':
      return vscode.l10n.t('crashed');
    case 'failed':
      return vscode.l10n.t('failed to load');
  }
}

// The window status bar item showing the active notebook's bindings host (its state and module), like a kernel's:
// click to interrupt a running handler, or to restart the host otherwise.
export class BindingsStatusItem implements vscode.Disposable {
  readonly #item = vscode.window.createStatusBarItem('ptcPlayground.bindingsHost', vscode.StatusBarAlignment.Right, 99);
  readonly #sessions: SessionService;
  readonly #disposables: vscode.Disposable[] = [];

  constructor(sessions: SessionService) {
    this.#sessions = sessions;
    this.#item.name = vscode.l10n.t('PTC Playground bindings host');
    this.#disposables.push(
      this.#item,
      vscode.window.onDidChangeActiveNotebookEditor(() => this.refresh()),
      sessions.onDidChangeStatus((e) => {
        if (e.notebook === vscode.window.activeNotebookEditor?.notebook) this.refresh();
      }),
      vscode.workspace.onDidChangeNotebookDocument((e) => {
        if (e.notebook === vscode.window.activeNotebookEditor?.notebook && e.metadata !== undefined) this.refresh();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('ptcPlayground.defaultBindings')) this.refresh();
      }),
    );
    this.refresh();
  }

  // What the item shows now (tests read it through the status command).
  get text(): string {
    return this.#item.text;
  }

  refresh(): void {
    const notebook = vscode.window.activeNotebookEditor?.notebook;
    const status = notebook?.notebookType === NOTEBOOK_TYPE ? this.#sessions.statusFor(notebook) : undefined;
    if (status === undefined) {
      this.#item.hide();
      return;
    }
    this.#show(status);
  }

  #show(status: BindingsHostStatus): void {
    const module = path.basename(status.module);
    this.#item.text = `${ICONS[status.state]} ${module}`;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = { enabledCommands: [COMMANDS.restartBindings, COMMANDS.interruptBindings, COMMANDS.showLog] };
    tooltip.appendMarkdown(vscode.l10n.t('Bindings host of **{0}**: {1}', module, stateLabel(status.state)));
    if (status.detail !== undefined) tooltip.appendMarkdown('\n\n').appendText(status.detail);
    tooltip.appendMarkdown(
      `\n\n[${vscode.l10n.t('Restart Bindings')}](command:${COMMANDS.restartBindings}) · [${vscode.l10n.t('Interrupt')}](command:${COMMANDS.interruptBindings}) · [${vscode.l10n.t('Show Log')}](command:${COMMANDS.showLog})`,
    );
    this.#item.tooltip = tooltip;
    this.#item.command = status.state === 'busy' ? COMMANDS.interruptBindings : COMMANDS.restartBindings;
    this.#item.backgroundColor =
      status.state === 'crashed' || status.state === 'failed'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : undefined;
    this.#item.show();
  }

  dispose(): void {
    for (const d of this.#disposables.splice(0)) d.dispose();
  }
}
