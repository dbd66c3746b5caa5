// The browser entry (vscode.dev, github.dev): `.ptcnb` files open and save as on the desktop, TypeScript cells run in
// the quickjs WebAssembly engine and Python cells in the pyodide one, each in a fresh web worker (web-runner.ts), their
// calls answered by a code bindings module's mock handlers in a bindings worker of its own, a JSON bindings module's
// MCP servers over HTTP (web-bindings.ts), or a cassette. What needs the desktop (live handlers of a code module,
// stdio MCP servers, recording, the inspector, models) says so instead of failing silently.
import * as vscode from 'vscode';
import { readConfig } from '../config/config.js';
import { CONTROLLER_ID, LOG_CHANNEL_NAME, NOTEBOOK_TYPE } from '../constants.js';
import { createLogger } from '../log/logger.js';
import { SerializerRegistration } from '../notebook/serializer-registration.js';
import { WebBindings } from './web-bindings.js';
import { createWebEngine, registerWebController } from './web-runner.js';

const DESKTOP_ONLY = vscode.l10n.t(
  'This PTC Playground command needs VS Code on the desktop (or a remote or Codespace): in the browser, TypeScript and Python cells run in WebAssembly engines (quickjs, pyodide), their calls answered by the mock handlers of a code bindings module (in a web worker of its own), the MCP servers (over HTTP) of a JSON bindings module, or cassettes; everything else (live handlers, stdio MCP servers, recording, the inspector, models) needs processes a browser does not have.',
);

export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  // no home folder to scrub in a browser: paths come from the virtual workspace
  const log = createLogger(channel, (text) => text);
  context.subscriptions.push(
    channel,
    new SerializerRegistration(log, () => readConfig().config['notebook.saveOutputs']),
  );

  const controller = vscode.notebooks.createNotebookController(
    CONTROLLER_ID,
    NOTEBOOK_TYPE,
    vscode.l10n.t('PTC Playground (browser: WebAssembly)'),
  );
  controller.description = vscode.l10n.t(
    'TypeScript cells run in the quickjs WebAssembly engine, Python cells in the pyodide one',
  );
  const bindings = new WebBindings(log);
  registerWebController(controller, createWebEngine(context.extensionUri), () => readConfig().config, log, bindings);
  context.subscriptions.push(controller, bindings);

  // every other command of the manifest is contributed for the desktop; here each one says why it cannot act
  const contributed =
    (context.extension.packageJSON as { contributes?: { commands?: { command?: unknown }[] } }).contributes?.commands ??
    [];
  for (const entry of contributed) {
    if (typeof entry.command !== 'string') continue;
    context.subscriptions.push(
      vscode.commands.registerCommand(entry.command, () => void vscode.window.showWarningMessage(DESKTOP_ONLY)),
    );
  }
  log.info(
    "browser entry active: TypeScript cells run in the quickjs WebAssembly engine, Python cells in the pyodide one, in a web worker per run; calls go to the mock handlers of a code bindings module (in a bindings worker of its own), the MCP servers (over HTTP) of a JSON one, else to the cells' cassettes",
  );
}

export function deactivate(): void {
  // everything registered is in context.subscriptions
}
