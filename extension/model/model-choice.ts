import * as vscode from 'vscode';
import { checkBaseUrl, DEFAULT_BASE_URLS, endpointClient, keyFromEnv, type EndpointProvider, type ModelClient } from '../../runtime/index.js';
import { readConfig } from '../config/config.js';
import { PICKED_MODELS_KEY } from '../constants.js';
import { lmClient } from './lm-client.js';

// What the notebook toolbar's picker stored for a notebook: a vscode.lm model, or the configured endpoint.
export type PickedModel = { kind: 'vscode-lm'; id: string; label: string } | { kind: 'endpoint' };

export type ClientChoice = { ok: true; client: ModelClient } | { ok: false; message: string };

export const secretName = (provider: EndpointProvider): string => `ptcPlayground.apiKey.${provider}`;

// Whether the running editor has the Language Model API at all (older builds and some forks do not).
export function hasLanguageModels(): boolean {
  return typeof (vscode as { lm?: { selectChatModels?: unknown } }).lm?.selectChatModels === 'function';
}

export class ModelChoices {
  readonly #state: vscode.Memento;
  readonly #secrets: vscode.SecretStorage;
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.#changed.event;

  constructor(state: vscode.Memento, secrets: vscode.SecretStorage) {
    this.#state = state;
    this.#secrets = secrets;
  }

  picked(notebook: vscode.NotebookDocument): PickedModel | undefined {
    const all = this.#state.get<Record<string, PickedModel>>(PICKED_MODELS_KEY) ?? {};
    const value = all[notebook.uri.toString()];
    return value?.kind === 'endpoint' || (value?.kind === 'vscode-lm' && typeof value.id === 'string') ? value : undefined;
  }

  async pick(notebook: vscode.NotebookDocument, choice: PickedModel): Promise<void> {
    const all = { ...(this.#state.get<Record<string, PickedModel>>(PICKED_MODELS_KEY) ?? {}) };
    all[notebook.uri.toString()] = choice;
    await this.#state.update(PICKED_MODELS_KEY, all);
    this.#changed.fire();
  }

  // The client a task cell in `notebook` uses: the picked model, else the settings (auto: vscode.lm first).
  async clientFor(notebook: vscode.NotebookDocument): Promise<ClientChoice> {
    const picked = this.picked(notebook);
    const { config } = readConfig(notebook.uri);
    if (picked?.kind === 'vscode-lm') return this.#lm({ id: picked.id });
    if (picked?.kind === 'endpoint' || config['model.provider'] === 'openai' || config['model.provider'] === 'anthropic') return this.#endpoint(notebook);
    if (config['model.provider'] === 'vscode-lm') return this.#lm({});
    // auto: the editor's models when it has one, else the endpoint when one is configured
    const lm = await this.#lm({});
    if (lm.ok || config['model.name'].trim() === '') return lm.ok ? lm : { ok: false, message: noModelMessage() };
    return this.#endpoint(notebook);
  }

  async #lm(selector: { id?: string }): Promise<ClientChoice> {
    if (!hasLanguageModels())
      return { ok: false, message: vscode.l10n.t('This editor has no Language Model API; configure an endpoint (ptcPlayground.model.*) instead.') };
    const models = await vscode.lm.selectChatModels(selector.id === undefined ? {} : { id: selector.id });
    const model = models[0];
    if (model === undefined)
      return {
        ok: false,
        message: selector.id === undefined ? noModelMessage() : vscode.l10n.t('The picked model ({0}) is no longer available: pick another.', selector.id),
      };
    return { ok: true, client: lmClient(model) };
  }

  async #endpoint(notebook: vscode.NotebookDocument): Promise<ClientChoice> {
    const { config } = readConfig(notebook.uri);
    const provider: EndpointProvider = config['model.provider'] === 'anthropic' ? 'anthropic' : 'openai';
    const model = config['model.name'].trim();
    if (model === '') return { ok: false, message: vscode.l10n.t('Set ptcPlayground.model.name (and model.provider, model.baseUrl) to use an endpoint.') };
    const baseUrl = config['model.baseUrl'].trim() === '' ? DEFAULT_BASE_URLS[provider] : config['model.baseUrl'].trim();
    const problem = checkBaseUrl(baseUrl);
    if (problem !== undefined) return { ok: false, message: `ptcPlayground.model.baseUrl: ${problem}` };
    // the editor's secret storage first, then the environment; the key is handed to the client and nowhere else
    const key = (await this.#secrets.get(secretName(provider))) ?? keyFromEnv(provider, process.env);
    return { ok: true, client: endpointClient({ provider, model, baseUrl }, key) };
  }

  async setKey(provider: EndpointProvider, key: string): Promise<void> {
    if (key === '') await this.#secrets.delete(secretName(provider));
    else await this.#secrets.store(secretName(provider), key);
  }

  dispose(): void {
    this.#changed.dispose();
  }
}

function noModelMessage(): string {
  return vscode.l10n.t('No model is available: pick one with "Pick Model for Task Cells", or configure an endpoint (ptcPlayground.model.*).');
}
