// The browser entry (vscode.dev, github.dev): `.ptcnb` files open and their saved results render, read-only as far as
// running goes. A browser has no processes to sandbox, so cells cannot run there, and the extension says so.
import * as vscode from 'vscode';
import { readConfig } from '../config/config.js';
import { CONTROLLER_ID, LOG_CHANNEL_NAME, NOTEBOOK_TYPE } from '../constants.js';
import { createLogger } from '../log/logger.js';
import { SerializerRegistration } from '../notebook/serializer-registration.js';

const NO_PROCESSES = vscode.l10n.t(
  'PTC Playground cannot run cells in the browser: vscode.dev and github.dev have no processes to run a sandboxed program in. Notebooks and their saved results are shown as they were; open the folder in VS Code on the desktop (or in a remote or Codespace) with PTC Playground installed to run them.',
);

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  // no home folder to scrub in a browser: paths come from the virtual workspace
  const log = createLogger(channel, (text) => text);
  context.subscriptions.push(
    channel,
    new SerializerRegistration(log, () => readConfig().config['notebook.saveOutputs']),
  );

  // a kernel that explains instead of failing silently: the cell's saved outputs stay untouched
  const controller = vscode.notebooks.createNotebookController(
    CONTROLLER_ID,
    NOTEBOOK_TYPE,
    vscode.l10n.t('PTC Playground (browser: view only)'),
  );
  controller.supportedLanguages = ['typescript', 'python'];
  controller.description = vscode.l10n.t('cells run only in VS Code on the desktop');
  controller.executeHandler = (cells) => {
    for (const cell of cells) {
      const execution = controller.createNotebookCellExecution(cell);
      execution.start(Date.now());
      execution.end(false, Date.now());
    }
    void vscode.window.showWarningMessage(NO_PROCESSES);
  };
  context.subscriptions.push(controller);

  // every other command of the manifest is contributed for the desktop; here each one says why it cannot act
  const contributed =
    (context.extension.packageJSON as { contributes?: { commands?: { command?: unknown }[] } }).contributes?.commands ??
    [];
  for (const entry of contributed) {
    if (typeof entry.command !== 'string') continue;
    context.subscriptions.push(
      vscode.commands.registerCommand(entry.command, () => void vscode.window.showWarningMessage(NO_PROCESSES)),
    );
  }
  log.info('browser entry active: notebooks open read-only as far as running goes');
}

export function deactivate(): void {
  // everything registered is in context.subscriptions
}
