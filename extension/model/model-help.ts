import * as vscode from 'vscode';
import { CONFIG_SECTION, COMMANDS } from '../constants.js';
import { escapeMarkdown } from '../notebook/result-output.js';

// A task cell that has no model to ask: the reason, then what fixes it, as command links on the cell.
export function modelHelpMarkdown(message: string, help: 'no-model' | 'no-key'): string {
  const link = (title: string, command: string) => `[${escapeMarkdown(title)}](command:${command})`;
  const actions =
    help === 'no-key'
      ? [
          link(vscode.l10n.t('Set Model API Key'), COMMANDS.setModelKey),
          link(vscode.l10n.t('Pick Model'), COMMANDS.pickModel),
        ]
      : [
          link(vscode.l10n.t('Pick Model'), COMMANDS.pickModel),
          link(vscode.l10n.t('Set Model API Key'), COMMANDS.setModelKey),
        ];
  actions.push(
    link(vscode.l10n.t('Model Settings'), COMMANDS.openModelSettings),
    link(vscode.l10n.t('Try the Offline Fake Model'), COMMANDS.useFakeModel),
  );
  const fake = vscode.l10n.t(
    'The offline fake model is scripted (no key, nothing leaves this machine): it answers "What is the population of Paris? Answer with the number only." with the tour\'s bindings.',
  );
  return `${escapeMarkdown(message)}\n\n${actions.join(' · ')}\n\n${escapeMarkdown(fake)}`;
}

// `ptcPlayground.openModelSettings`: the model settings where they can be edited. They are machine-scoped (a key or
// an endpoint belongs to the machine that sends the request), so a remote window shows them only in its Remote tab.
export async function openModelSettings(): Promise<string> {
  const command =
    vscode.env.remoteName === undefined ? 'workbench.action.openSettings' : 'workbench.action.openRemoteSettings';
  await vscode.commands.executeCommand(command, `${CONFIG_SECTION}.model`);
  return command;
}
