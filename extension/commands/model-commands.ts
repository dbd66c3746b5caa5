import * as vscode from 'vscode';
import { DEFAULT_BASE_URLS, type EndpointProvider } from '../../runtime/index.js';
import { readConfig } from '../config/config.js';
import { TASK_LANGUAGE } from '../constants.js';
import {
  FAKE_MODEL_NAME,
  hasLanguageModels,
  isPickedModel,
  type ModelChoices,
  type PickedModel,
} from '../model/model-choice.js';
import { openModelSettings } from '../model/model-help.js';
import { targetCell, targetNotebook } from './target-cell.js';

type PickItem = vscode.QuickPickItem & { choice?: PickedModel; configure?: true };

// `ptcPlayground.pickModel [{ notebook?, choice }]`: the notebook's model for task cells. Without an argument,
// a quick pick of the editor's language models and the configured endpoint. Resolves to the stored choice.
export async function pickModel(choices: ModelChoices, arg?: unknown): Promise<PickedModel | undefined> {
  const given =
    arg !== null && typeof arg === 'object' && 'choice' in arg
      ? (arg as { choice: unknown; notebook?: unknown })
      : undefined;
  const notebook = targetNotebook(given?.notebook ?? arg) ?? targetCell(arg)?.notebook;
  if (notebook === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a PTC notebook to pick its model.'));
    return undefined;
  }
  if (given !== undefined) {
    if (!isPickedModel(given.choice)) return undefined;
    await choices.pick(notebook, given.choice);
    return given.choice;
  }
  const items: PickItem[] = [];
  if (hasLanguageModels()) {
    for (const model of await vscode.lm.selectChatModels({}))
      items.push({
        label: model.name,
        description: `${model.vendor} · ${model.family}`,
        choice: { kind: 'vscode-lm', id: model.id, label: model.name },
      });
  }
  const { config } = readConfig(notebook.uri);
  const provider: EndpointProvider = config['model.provider'] === 'anthropic' ? 'anthropic' : 'openai';
  if (config['model.name'].trim() !== '')
    items.push({
      label: `${provider}:${config['model.name'].trim()}`,
      description: config['model.baseUrl'].trim() === '' ? DEFAULT_BASE_URLS[provider] : config['model.baseUrl'].trim(),
      detail: vscode.l10n.t('Endpoint from settings (ptcPlayground.model.*)'),
      choice: { kind: 'endpoint' },
    });
  items.push({
    label: vscode.l10n.t('Offline fake model'),
    description: FAKE_MODEL_NAME,
    detail: vscode.l10n.t('Scripted, no key: answers the sample tasks of examples/models/fake-model.json'),
    choice: { kind: 'fake' },
  });
  items.push({ label: vscode.l10n.t('Configure an endpoint…'), configure: true });
  const current = choices.picked(notebook);
  for (const item of items)
    if (item.choice !== undefined && JSON.stringify(item.choice) === JSON.stringify(current)) item.picked = true;
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Model for task cells') });
  if (picked === undefined) return undefined;
  if (picked.configure === true) {
    await openModelSettings();
    return undefined;
  }
  if (picked.choice === undefined) return undefined;
  await choices.pick(notebook, picked.choice);
  return picked.choice;
}

// `ptcPlayground.setModelKey [{ provider, key }]`: stores a key in the editor's secret storage (an empty key
// removes it). It is never written to settings, notebooks, cassettes, transcripts or the log.
export async function setModelKey(choices: ModelChoices, arg?: unknown): Promise<boolean> {
  const given = arg !== null && typeof arg === 'object' ? (arg as { provider?: unknown; key?: unknown }) : {};
  const provider =
    given.provider === 'openai' || given.provider === 'anthropic'
      ? given.provider
      : (
          await vscode.window.showQuickPick(
            [
              { label: 'openai', description: vscode.l10n.t('OpenAI-compatible Chat Completions') },
              { label: 'anthropic', description: vscode.l10n.t('Anthropic Messages API') },
            ],
            { title: vscode.l10n.t('Which endpoint is the key for?') },
          )
        )?.label;
  if (provider !== 'openai' && provider !== 'anthropic') return false;
  const key =
    typeof given.key === 'string'
      ? given.key
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('API key for {0} (empty removes it)', provider),
          password: true,
          ignoreFocusOut: true,
        });
  if (key === undefined) return false;
  await choices.setKey(provider, key.trim());
  return true;
}

// `ptcPlayground.newTaskCell`: a task cell below the selected cell (at the end when none is selected), selected,
// scrolled into view and ready for typing, with a one-line hint of what to write.
export async function newTaskCell(arg?: unknown): Promise<vscode.NotebookCell | undefined> {
  const notebook = targetNotebook(arg) ?? vscode.window.activeNotebookEditor?.notebook;
  if (notebook === undefined) return undefined;
  const editor =
    vscode.window.activeNotebookEditor?.notebook === notebook ? vscode.window.activeNotebookEditor : undefined;
  const selected = editor === undefined ? undefined : targetCell(undefined);
  const at = selected === undefined ? notebook.cellCount : selected.index + 1;
  const data = new vscode.NotebookCellData(vscode.NotebookCellKind.Code, '', TASK_LANGUAGE);
  const edit = new vscode.WorkspaceEdit();
  edit.set(notebook.uri, [vscode.NotebookEdit.insertCells(at, [data])]);
  if (!(await vscode.workspace.applyEdit(edit))) return undefined;
  if (editor !== undefined) {
    const range = new vscode.NotebookRange(at, at + 1);
    editor.selections = [range];
    editor.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  }
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Task cell added: describe the task in plain words and run it; the model writes a program cell below it and runs it.',
    ),
  );
  return notebook.cellAt(at);
}

// `ptcPlayground.useFakeModel [notebook]`: picks the offline fake model for the notebook's task cells.
export async function useFakeModel(choices: ModelChoices, arg?: unknown): Promise<PickedModel | undefined> {
  const notebook = targetNotebook(arg) ?? targetCell(arg)?.notebook;
  if (notebook === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a PTC notebook to pick its model.'));
    return undefined;
  }
  const choice: PickedModel = { kind: 'fake' };
  await choices.pick(notebook, choice);
  void vscode.window.showInformationMessage(
    vscode.l10n.t(
      'Task cells of this notebook now ask the offline fake model. Try: "What is the population of Paris? Answer with the number only."',
    ),
  );
  return choice;
}
