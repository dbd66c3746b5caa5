import * as vscode from 'vscode';
import type { ProblemAction, RendererToHostMessage } from '../../webview/protocol/index.js';
import { COMMANDS } from '../constants.js';
import { openFileAt } from '../notebook/problem-links.js';

export type ProblemMessage = Extract<RendererToHostMessage, { type: 'problem-action' | 'open-file' }>;

// The command a problem output's button runs, with the notebook the output is in; the only commands an output can
// reach (the names are a closed set, checked before this runs).
export function problemCommand(action: ProblemAction, notebook: vscode.NotebookDocument): [string, ...unknown[]] {
  switch (action) {
    case 'set-notebook-bindings':
      return [COMMANDS.setNotebookBindings, notebook.uri];
    case 'show-log':
      return [COMMANDS.showLog];
    case 'pick-model':
      return [COMMANDS.pickModel, notebook.uri];
    case 'set-model-key':
      return [COMMANDS.setModelKey];
    case 'model-settings':
      return [COMMANDS.openModelSettings];
    case 'fake-model':
      return [COMMANDS.useFakeModel, notebook.uri];
    case 'review-runtime-paths':
      return [COMMANDS.reviewRuntimePaths];
    case 'manage-trust':
      return ['workbench.trust.manage'];
  }
}

// Carries out a problem output's button or file link. None of them runs a cell, so they work in Restricted Mode too
// (Manage Workspace Trust is how a person leaves it).
export async function problemAction(
  message: ProblemMessage,
  notebook: vscode.NotebookDocument,
): Promise<{ ok: true } | { ok: false; message: string }> {
  if (message.type === 'open-file') {
    return (await openFileAt(message.location))
      ? { ok: true }
      : { ok: false, message: vscode.l10n.t('{0} could not be opened.', message.location.path) };
  }
  const [command, ...args] = problemCommand(message.action, notebook);
  await vscode.commands.executeCommand(command, ...args);
  return { ok: true };
}
