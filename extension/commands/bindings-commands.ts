import * as vscode from 'vscode';
import type { SessionService } from '../bindings/session-service.js';
import { targetNotebook } from './target-cell.js';

// `ptcPlayground.restartBindings [notebook]`: a fresh bindings host (the module imported anew, its MCP servers
// started anew); calls the old one was running fail naming the restart. Resolves true once it was restarted.
export async function restartBindings(sessions: SessionService, arg?: unknown): Promise<boolean> {
  const notebook = targetNotebook(arg);
  if (notebook === undefined || sessions.pathFor(notebook) === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This notebook has no bindings module to restart.'));
    return false;
  }
  return sessions.restart(notebook);
}

// `ptcPlayground.interruptBindings [notebook]`: every call the notebook's bindings host is running fails now and
// its handler sees its abort signal; a host too stuck to answer is replaced. Resolves with the number of calls.
export async function interruptBindings(sessions: SessionService, arg?: unknown): Promise<number> {
  const notebook = targetNotebook(arg);
  if (notebook === undefined) return 0;
  const calls = await sessions.interrupt(notebook);
  void vscode.window.showInformationMessage(
    calls === 0
      ? vscode.l10n.t('No binding call was running.')
      : vscode.l10n.t('Interrupted {0} running binding call(s).', calls),
  );
  return calls;
}
