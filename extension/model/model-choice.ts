import * as vscode from 'vscode';
import {
  checkBaseUrl,
  DEFAULT_BASE_URLS,
  endpointClient,
  KEY_VARIABLES,
  keyFromEnv,
  type EndpointProvider,
  type ModelClient,
} from '../../runtime/index.js';
import { readConfig } from '../config/config.js';
import { PICKED_MODELS_KEY } from '../constants.js';
import type { FakeModel } from './fake-model.js';
import { lmClient } from './lm-client.js';

// What the notebook toolbar's picker stored for a notebook: a vscode.lm model, the configured endpoint, or the
// offline fake model of examples/models.
export type PickedModel = { kind: 'vscode-lm'; id: string; label: string } | { kind: 'endpoint' } | { kind: 'fake' };

// `help` says which actions fit a failure: no model at all, or an endpoint without its key (model-help.ts)
export type ClientChoice =
  { ok: true; client: ModelClient } | { ok: false; message: string; help?: 'no-model' | 'no-key' };

export const FAKE_MODEL_NAME = 'fake-model';

export function isPickedModel(value: unknown): value is PickedModel {
  if (value === null || typeof value !== 'object') return false;
  const kind = (value as { kind?: unknown }).kind;
  return (
    kind === 'endpoint' ||
    kind === 'fake' ||
    (kind === 'vscode-lm' && typeof (value as { id?: unknown }).id === 'string')
  );
}

// Loopback endpoints (a local server, the fake model) need no key; anything else without one would answer 401.
function isLoopback(baseUrl: string): boolean {
  try {
    return ['localhost', '127.0.0.1', '[::1]'].includes(new URL(baseUrl).hostname);
  } catch {
    return false;
  }
}

export const secretName = (provider: EndpointProvider): string => `ptcPlayground.apiKey.${provider}`;

// Whether the running editor has the Language Model API at all (older builds and some forks do not).
export function hasLanguageModels(): boolean {
  return typeof (vscode as { lm?: { selectChatModels?: unknown } }).lm?.selectChatModels === 'function';
}

export class ModelChoices {
  readonly #state: vscode.Memento;
  readonly #secrets: vscode.SecretStorage;
  readonly #fake: FakeModel;
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.#changed.event;

  constructor(state: vscode.Memento, secrets: vscode.SecretStorage, fake: FakeModel) {
    this.#state = state;
    this.#secrets = secrets;
    this.#fake = fake;
  }

  picked(notebook: vscode.NotebookDocument): PickedModel | undefined {
    const all = this.#state.get<Record<string, PickedModel>>(PICKED_MODELS_KEY) ?? {};
    const value = all[notebook.uri.toString()];
    return isPickedModel(value) ? value : undefined;
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
    if (picked?.kind === 'fake') {
      const started = await this.#fake.baseUrl();
      if (!started.ok) return started;
      return {
        ok: true,
        client: endpointClient({ provider: 'openai', model: FAKE_MODEL_NAME, baseUrl: started.url }, undefined),
      };
    }
    if (
      picked?.kind === 'endpoint' ||
      config['model.provider'] === 'openai' ||
      config['model.provider'] === 'anthropic'
    )
      return this.#endpoint(notebook);
    if (config['model.provider'] === 'vscode-lm') return this.#lm({});
    // auto: the editor's models when it has one, else the endpoint when one is configured
    const lm = await this.#lm({});
    if (lm.ok || config['model.name'].trim() === '')
      return lm.ok ? lm : { ok: false, message: noModelMessage(), help: 'no-model' };
    return this.#endpoint(notebook);
  }

  async #lm(selector: { id?: string }): Promise<ClientChoice> {
    if (!hasLanguageModels())
      return {
        ok: false,
        message: vscode.l10n.t(
          'This editor has no Language Model API; configure an endpoint (ptcPlayground.model.*) instead.',
        ),
        help: 'no-model',
      };
    const models = await vscode.lm.selectChatModels(selector.id === undefined ? {} : { id: selector.id });
    const model = models[0];
    if (model === undefined)
      return {
        ok: false,
        message:
          selector.id === undefined
            ? noModelMessage()
            : vscode.l10n.t('The picked model ({0}) is no longer available: pick another.', selector.id),
        help: 'no-model',
      };
    return { ok: true, client: lmClient(model) };
  }

  async #endpoint(notebook: vscode.NotebookDocument): Promise<ClientChoice> {
    const { config } = readConfig(notebook.uri);
    const provider: EndpointProvider = config['model.provider'] === 'anthropic' ? 'anthropic' : 'openai';
    const model = config['model.name'].trim();
    if (model === '')
      return {
        ok: false,
        message: vscode.l10n.t('Set ptcPlayground.model.name (and model.provider, model.baseUrl) to use an endpoint.'),
        help: 'no-model',
      };
    const baseUrl =
      config['model.baseUrl'].trim() === '' ? DEFAULT_BASE_URLS[provider] : config['model.baseUrl'].trim();
    const problem = checkBaseUrl(baseUrl);
    if (problem !== undefined) return { ok: false, message: `ptcPlayground.model.baseUrl: ${problem}` };
    // the editor's secret storage first, then the environment; the key is handed to the client and nowhere else
    const key = (await this.#secrets.get(secretName(provider))) ?? keyFromEnv(provider, process.env);
    if (key === undefined && !isLoopback(baseUrl))
      return {
        ok: false,
        message: vscode.l10n.t(
          'No API key for {0} ({1}): set one with "Set Model API Key" (kept in the editor\'s secret storage) or in the environment ({2}).',
          provider,
          baseUrl,
          KEY_VARIABLES[provider].join(', '),
        ),
        help: 'no-key',
      };
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
  return vscode.l10n.t(
    'No model is available: pick one with "Pick Model for Task Cells", or configure an endpoint (ptcPlayground.model.*).',
  );
}
