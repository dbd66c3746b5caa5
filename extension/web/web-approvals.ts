// Approvals in the browser entry: a call of a function whose policy is `ask` waits for a person, asked in a modal
// dialog (a notification can be hidden, and the run's deadline does not run while a call waits); Allow runs its
// handler, anything else denies it with the desktop's words. A run that ends while the dialog is open decides nothing.
import * as vscode from 'vscode';
import { callLabel, deniedMessage, type PauseDecider } from '../debug/call-pause-ui.js';

export const askInBrowser: PauseDecider = async (call, control) => {
  // only approvals pause a browser run (it sets no breakpoints)
  if (call.reason !== 'approval') return { kind: 'continue' };
  const allow = vscode.l10n.t('Allow');
  const deny = vscode.l10n.t('Deny');
  let onAbort = (): void => undefined;
  const ended = new Promise<undefined>((resolve) => {
    onAbort = () => resolve(undefined);
    control.signal.addEventListener('abort', onAbort, { once: true });
    if (control.signal.aborted) onAbort();
  });
  const choice = await Promise.race([
    vscode.window.showWarningMessage(
      vscode.l10n.t('A program wants to call {0}, which needs your approval.', callLabel(call)),
      { modal: true, detail: vscode.l10n.t('Allow runs the call; Deny fails it in the program.') },
      allow,
      deny,
    ),
    ended,
  ]);
  control.signal.removeEventListener('abort', onAbort);
  return choice === allow ? { kind: 'continue' } : { kind: 'throw', message: deniedMessage(call) };
};
