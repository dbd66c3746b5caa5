import * as vscode from 'vscode';
import {
  type HostToRendererMessage,
  parseL10nBundle,
  parseRendererToHost,
  RENDERER_ID,
  type RendererToHostMessage,
} from '../../webview/protocol/index.js';
import type { Logger } from '../log/logger.js';
import { hasCassette as hasCellCassette } from '../notebook/cassette-path.js';
import { problemAction } from './problem-actions.js';
import { errorMessage } from '../../runtime/index.js';

// what a rendered result's buttons ask for (the l10n request is answered by the host itself, a problem output's
// buttons by problem-actions.ts)
export type RendererActionMessage = Exclude<
  RendererToHostMessage,
  { type: 'l10n-request' | 'problem-action' | 'open-file' }
>;

export type RendererActionOutcome = { ok: true; message?: string } | { ok: false; message: string };

export interface RendererHostDeps {
  log: Logger;
  // acts on the cell the message names, in the editor's notebook
  act: (message: RendererActionMessage, notebook: vscode.NotebookDocument) => Promise<RendererActionOutcome>;
}

// The host side of renderer messaging: validated requests in, one `ack` back to the editor that asked.
export class RendererHost implements vscode.Disposable {
  readonly #messaging = vscode.notebooks.createRendererMessaging(RENDERER_ID);
  readonly #deps: RendererHostDeps;
  readonly #subscription: vscode.Disposable;

  constructor(deps: RendererHostDeps) {
    this.#deps = deps;
    this.#subscription = this.#messaging.onDidReceiveMessage(
      ({ editor, message }) => void this.#receive(editor, message),
    );
  }

  // Tells the renderers in one editor about a cell (running, has a cassette) so they can enable their buttons.
  postCellState(editor: vscode.NotebookEditor, state: Extract<HostToRendererMessage, { type: 'cell-state' }>): void {
    void this.#messaging
      .postMessage(state, editor)
      .then(undefined, (error: unknown) => this.#deps.log.debug('renderer did not take a cell-state message', error));
  }

  // Tells every editor showing the cell's notebook whether it runs and has a cassette.
  postCellStateFor(cell: vscode.NotebookCell, running: boolean): void {
    const cellId: unknown = cell.metadata.id;
    if (typeof cellId !== 'string') return;
    const hasCassette = hasCellCassette(cell);
    for (const editor of vscode.window.visibleNotebookEditors) {
      if (editor.notebook === cell.notebook)
        this.postCellState(editor, { type: 'cell-state', cellId, hasCassette, running });
    }
  }

  async #receive(editor: vscode.NotebookEditor, data: unknown): Promise<void> {
    const parsed = parseRendererToHost(data);
    if (!parsed.ok) {
      this.#deps.log.warn(`renderer sent an invalid message: ${parsed.error}`);
      return;
    }
    const message = parsed.message;
    if (message.type === 'l10n-request') {
      this.#postL10n(editor);
      return;
    }
    let outcome: RendererActionOutcome;
    if (message.type === 'problem-action' || message.type === 'open-file') {
      this.#deps.log.debug(
        `renderer message: ${message.type === 'open-file' ? `open ${message.location.path}` : message.action}`,
      );
      outcome = await this.#guard(message.type, () => problemAction(message, editor.notebook));
    } else {
      this.#deps.log.debug(
        `renderer message: ${message.type}${message.cellId === undefined ? '' : ` (cell ${message.cellId})`}`,
      );
      outcome = await this.#cellAction(message, editor.notebook);
    }
    const ack: HostToRendererMessage = {
      type: 'ack',
      requestId: message.requestId,
      ok: outcome.ok,
      ...(outcome.message === undefined ? {} : { message: outcome.message.slice(0, 2_000) }),
    };
    await this.#messaging.postMessage(ack, editor);
  }

  // A result's button: in Restricted Mode only the inspector opens (the others run the cell).
  async #cellAction(message: RendererActionMessage, notebook: vscode.NotebookDocument): Promise<RendererActionOutcome> {
    if (!vscode.workspace.isTrusted && message.type !== 'open-inspector')
      return { ok: false, message: vscode.l10n.t('Cells do not run in Restricted Mode.') };
    return this.#guard(message.type, () => this.#deps.act(message, notebook));
  }

  async #guard(what: string, action: () => Promise<RendererActionOutcome>): Promise<RendererActionOutcome> {
    try {
      return await action();
    } catch (error) {
      this.#deps.log.error(`renderer action ${what} failed`, error);
      return { ok: false, message: errorMessage(error) };
    }
  }

  // The display language's strings for a renderer that just activated; nothing to send in English.
  #postL10n(editor: vscode.NotebookEditor): void {
    const bundle = vscode.l10n.bundle;
    if (bundle === undefined || Object.keys(bundle).length === 0) return;
    const checked = parseL10nBundle(bundle);
    if (checked === undefined) {
      this.#deps.log.warn('the l10n bundle is too large or not a string map; the renderer stays in English');
      return;
    }
    void this.#messaging
      .postMessage({ type: 'l10n', bundle: checked } satisfies HostToRendererMessage, editor)
      .then(undefined, (error: unknown) => this.#deps.log.debug('renderer did not take the l10n bundle', error));
  }

  dispose(): void {
    this.#subscription.dispose();
  }
}
