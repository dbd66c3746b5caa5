import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import type { Logger } from '../log/logger.js';
import { errorMessage } from '../../runtime/index.js';

interface FakeServer {
  url: string;
  close(): Promise<void>;
}
type Started = { ok: true; url: string } | { ok: false; message: string };

// The scripted model of examples/models (shipped in the VSIX), served on 127.0.0.1 for as long as the window lives, so
// a task cell can be tried with no account and no key. It answers only the tasks its script (fake-model.json) knows.
export class FakeModel implements vscode.Disposable {
  readonly #folder: vscode.Uri;
  readonly #log: Logger;
  #server: Promise<FakeServer> | undefined;

  constructor(options: { extension: vscode.Uri; log: Logger }) {
    this.#folder = vscode.Uri.joinPath(options.extension, 'examples', 'models');
    this.#log = options.log;
  }

  // The server's OpenAI-compatible base URL, starting it on first use.
  async baseUrl(): Promise<Started> {
    this.#server ??= this.#start();
    try {
      return { ok: true, url: `${(await this.#server).url}/v1` };
    } catch (error) {
      this.#server = undefined;
      this.#log.error('the offline fake model did not start', error);
      return {
        ok: false,
        message: vscode.l10n.t('The offline fake model did not start: {0}', errorMessage(error)),
      };
    }
  }

  async #start(): Promise<FakeServer> {
    const scriptText = new TextDecoder().decode(
      await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.#folder, 'fake-model.json')),
    );
    const script: unknown = JSON.parse(scriptText);
    const module = (await import(
      pathToFileURL(vscode.Uri.joinPath(this.#folder, 'fake-model-server.mjs').fsPath).href
    )) as {
      startFakeModelServer: (options: { script: unknown }) => Promise<FakeServer>;
    };
    const server = await module.startFakeModelServer({ script });
    this.#log.info(`offline fake model serving ${server.url} (script ${this.#folder.fsPath}/fake-model.json)`);
    return server;
  }

  dispose(): void {
    const server = this.#server;
    this.#server = undefined;
    void server
      ?.then((s) => s.close())
      .catch((error: unknown) => this.#log.warn('the offline fake model did not stop', error));
  }
}
