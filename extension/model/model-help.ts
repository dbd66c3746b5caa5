import * as vscode from 'vscode';
import type { ProblemAction } from '../../webview/protocol/index.js';
import { CONFIG_SECTION } from '../constants.js';

// A task cell that has no model to ask: what fixes it, offered on the cell (the key first when that is what is
// missing), and a word on the offline fake model.
export function modelHelp(help: 'no-model' | 'no-key'): { actions: ProblemAction[]; detail: string } {
  const first: ProblemAction[] = help === 'no-key' ? ['set-model-key', 'pick-model'] : ['pick-model', 'set-model-key'];
  return {
    actions: [...first, 'model-settings', 'fake-model'],
    detail: vscode.l10n.t(
      'The offline fake model is scripted (no key, nothing leaves this machine): it answers "What is the population of Paris? Answer with the number only." with the tour\'s bindings.',
    ),
  };
}

// `ptcPlayground.openModelSettings`: the model settings where they can be edited. They are machine-scoped (a key or
// an endpoint belongs to the machine that sends the request), so a remote window shows them only in its Remote tab.
export async function openModelSettings(): Promise<string> {
  const command =
    vscode.env.remoteName === undefined ? 'workbench.action.openSettings' : 'workbench.action.openRemoteSettings';
  await vscode.commands.executeCommand(command, `${CONFIG_SECTION}.model`);
  return command;
}
