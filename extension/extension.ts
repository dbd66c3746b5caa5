import * as vscode from 'vscode';
import { createRuntime } from '../runtime/index.js';
import { SessionService } from './bindings/session-service.js';
import { registerCommands } from './commands/register-commands.js';
import { readConfig, watchConfig } from './config/config.js';
import { PYTHON_EXTENSION_ID, selectedPythonInterpreter } from './config/python-extension.js';
import { RuntimePathApprovals } from './config/runtime-path-approvals.js';
import { COMMANDS, LOG_CHANNEL_NAME, NOTEBOOK_TYPE } from './constants.js';
import { PtcNotebookController } from './execution/controller.js';
import { RuntimePool } from './execution/runtime-pool.js';
import { InspectorPanels } from './inspector/inspector-panel.js';
import { BindingsIntelliSense } from './intellisense/bindings-intellisense.js';
import { TsServerSdk } from './intellisense/ts-server-sdk.js';
import { createLogger, type Logger } from './log/logger.js';
import { homeScrubber } from './log/scrub.js';
import { SerializerRegistration } from './notebook/serializer-registration.js';
import { ModelChoices } from './model/model-choice.js';
import { runTaskJob } from './model/task-job.js';
import { rendererAction } from './renderer/renderer-actions.js';
import { RendererHost } from './renderer/renderer-host.js';
import { SdkDocuments } from './sdk/sdk-documents.js';
import { CellStatusProvider } from './status/cell-status.js';
import { CallPauses } from './debug/call-pauses.js';
import { announcePause } from './debug/debug-commands.js';
import { BindingsStatusItem } from './status/bindings-status.js';
import { ModeStatusItem } from './status/mode-status.js';
import { PtcTestExplorer } from './testing/test-explorer.js';
import { FakeModel } from './model/fake-model.js';
import { BindingDiagnostics } from './intellisense/binding-diagnostics.js';
import { WalkthroughProgress } from './walkthrough/walkthrough-progress.js';
import { errorMessage } from '../runtime/index.js';

// The Python extension's selected interpreter for a notebook, activating that extension only when it is installed.
async function pythonFromExtension(scope: vscode.Uri): Promise<string | undefined> {
  const python = vscode.extensions.getExtension(PYTHON_EXTENSION_ID);
  if (python === undefined) return undefined;
  try {
    const api: unknown = python.isActive ? python.exports : await python.activate();
    return await selectedPythonInterpreter(api, scope);
  } catch {
    return undefined;
  }
}

// deactivate() must wait for child processes and MCP servers to stop; disposables cannot be awaited
let shutdown: (() => Promise<void>) | undefined;

function wire(context: vscode.ExtensionContext, log: Logger): void {
  const subscriptions = context.subscriptions;
  // one pre-started process per language: after the first run of a cell, the next run skips process start-up
  const pool = new RuntimePool({ create: (options) => createRuntime({ spares: 1, ...options }), log });
  // one session (one bindings host process) per open notebook: bindings code never runs in the extension host
  const bindings = new SessionService(log, (notebook) => pool.providerFor(notebook));
  shutdown = async () => {
    await pool.dispose();
    await bindings.shutdown();
  };
  const approvals = new RuntimePathApprovals(context.workspaceState, log);
  const cellStatus = new CellStatusProvider();
  const pauses = new CallPauses();
  const running = new Set<vscode.NotebookCell>();
  const inspector = new InspectorPanels({
    extensionUri: context.extensionUri,
    log,
    rerun: async (notebookUri, cellId) => {
      const notebook = vscode.workspace.notebookDocuments.find((nb) => nb.uri.toString() === notebookUri);
      const cell = notebook?.getCells().find((c) => c.metadata.id === cellId);
      if (cell !== undefined)
        await vscode.commands.executeCommand('notebook.cell.execute', {
          ranges: [{ start: cell.index, end: cell.index + 1 }],
          document: cell.notebook.uri,
        });
    },
    fork: async (notebook, cellId, callId) => {
      const outcome = await vscode.commands.executeCommand<{ ok: boolean; message?: string } | undefined>(
        COMMANDS.forkFromCall,
        { notebook, cellId },
        callId === undefined ? undefined : { at: callId },
      );
      if (outcome?.ok === false && outcome.message !== undefined)
        void vscode.window.showWarningMessage(outcome.message);
    },
  });
  const fakeModel = new FakeModel({ extension: context.extensionUri, log });
  const choices = new ModelChoices(context.workspaceState, context.secrets, fakeModel);
  const walkthrough = new WalkthroughProgress();
  const controller: PtcNotebookController = new PtcNotebookController({
    log,
    run: (notebook, request, paths) => pool.run(notebook, bindings.sessionFor(notebook), request, paths),
    approveRuntimePaths: async (language, scope) => {
      const approved = await approvals.approve(language, scope);
      if (!approved.ok || language !== 'python' || approved.paths.pythonPath !== undefined) return approved;
      // no ptcPlayground.pythonPath: the interpreter selected in the Python extension, when it is installed
      const selected = await pythonFromExtension(scope);
      controller.setInterpreterDetail(
        selected === undefined ? undefined : vscode.l10n.t('{0} (selected in the Python extension)', selected),
      );
      return selected === undefined ? approved : { ok: true, paths: { ...approved.paths, pythonPath: selected } };
    },
    onDidStart: (cell) => {
      running.add(cell);
      renderers.postCellStateFor(cell, true);
    },
    onProgress: (cell, snapshot) => cellStatus.setProgress(cell, snapshot),
    pausesFor: (cell) => pauses.pausesFor(cell, (waiting) => announcePause(cell, waiting)),
    onDidFinish: (cell) => {
      running.delete(cell);
      cellStatus.refresh();
      inspector.noteRun(cell);
      walkthrough.noteRun(cell);
      renderers.postCellStateFor(cell, false);
    },
    runTask: async (cell, execution) => {
      await runTaskJob(cell, execution, {
        log,
        choices,
        bindings,
        runCell: (target, override) => controller.runCell(target, override),
      });
      walkthrough.noteRun(cell);
    },
  });
  const renderers = new RendererHost({
    log,
    act: (message, notebook) =>
      rendererAction(
        { controller, inspector, log, postCellState: (cell) => renderers.postCellStateFor(cell, running.has(cell)) },
        message,
        notebook,
      ),
  });
  const sdk = new SdkDocuments(bindings, log);
  const intelliSense = new BindingsIntelliSense(bindings, log);
  const tsServerSdk = new TsServerSdk({
    bindings,
    log,
    storage: context.globalStorageUri,
    extension: context.extensionUri,
  });
  const bindingDiagnostics = new BindingDiagnostics({
    globalsFor: (document) => intelliSense.globalsFor(document),
    onDidChangeBindings: bindings.onDidChangeBindings,
  });
  void tsServerSdk.available.then((available) => {
    if (available) return;
    log.info(
      'no TypeScript server plugin (a development build, or the TypeScript extension is off): TypeScript cells get bindings completions and hovers from PTC Playground',
    );
    intelliSense.serveTypeScript();
  });
  subscriptions.push(
    new SerializerRegistration(log, () => readConfig().config['notebook.saveOutputs']),
    bindings,
    controller,
    inspector,
    renderers,
    sdk,
    cellStatus,
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, cellStatus),
    pauses,
    vscode.notebooks.registerNotebookCellStatusBarItemProvider(NOTEBOOK_TYPE, pauses),
    new ModeStatusItem(),
    new BindingsStatusItem(bindings),
    intelliSense,
    bindingDiagnostics,
    tsServerSdk,
    new PtcTestExplorer({ log, controller, approvals }),
    watchConfig(log, (changed) => log.info(`settings changed: ${changed.join(', ')}`)),
    choices,
    fakeModel,
    ...registerCommands({
      log,
      controller,
      bindings,
      approvals,
      inspector,
      sdk,
      choices,
      cellStatus,
      pauses,
      extension: context.extensionUri,
    }),
    { dispose: () => void shutdown?.().catch((error: unknown) => log.warn('shutdown failed', error)) },
  );
  for (const problem of readConfig().problems) log.warn(`setting ptcPlayground.${problem.key}: ${problem.message}`);
}

// When the bundle's first line ran (the banner of scripts/build-extension.mjs), for the 'activated in N ms' log line.
declare const __ptcBundleStart: number | undefined;
const loadStarted = typeof __ptcBundleStart === 'number' ? __ptcBundleStart : performance.now();

// Registers everything; activation failures are shown (VS Code would only log them) and rethrown.
export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  context.subscriptions.push(channel);
  const log = createLogger(channel, homeScrubber());
  try {
    wire(context, log);
    log.info(
      `activated in ${Math.round(performance.now() - loadStarted)} ms (${context.extension.packageJSON.version as string}, VS Code ${vscode.version}, Node ${process.versions.node}, workspace ${vscode.workspace.isTrusted ? 'trusted' : 'restricted'})`,
    );
  } catch (error) {
    log.error('activation failed', error);
    void vscode.window.showErrorMessage(vscode.l10n.t('PTC Playground failed to start: {0}', errorMessage(error)));
    throw error;
  }
}

// Stops every running cell's process and every MCP server the bindings started.
export async function deactivate(): Promise<void> {
  const stop = shutdown;
  shutdown = undefined;
  await stop?.();
}
