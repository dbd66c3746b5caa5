import * as vscode from 'vscode';
import type { SessionService } from '../bindings/session-service.js';
import type { RuntimePathApprovals } from '../config/runtime-path-approvals.js';
import { COMMANDS, type CommandId } from '../constants.js';
import type { PtcNotebookController } from '../execution/controller.js';
import type { InspectorPanels } from '../inspector/inspector-panel.js';
import type { Logger } from '../log/logger.js';
import type { SdkDocuments } from '../sdk/sdk-documents.js';
import type { CellStatusProvider } from '../status/cell-status.js';
import { type CommandOutcome, copyResultJson, noCell, recordCell, replayCell, reportOutcome } from './cell-commands.js';
import { setCellMode, switchMode } from './mode-commands.js';
import { interruptBindings, restartBindings } from './bindings-commands.js';
import { importTranscript } from './import-transcript.js';
import { saveRunTrace } from './save-trace.js';
import { stopCells } from './stop-cells.js';
import { setNotebookBindings } from './set-bindings.js';
import { newNotebook } from './new-notebook.js';
import { openTour } from './open-tour.js';
import { openFileAt } from '../notebook/problem-links.js';
import { newTaskCell, pickModel, setModelKey, useFakeModel } from './model-commands.js';
import { openModelSettings } from '../model/model-help.js';
import type { ModelChoices } from '../model/model-choice.js';
import { targetCell, targetNotebook } from './target-cell.js';
import { acceptExpected } from '../testing/accept-expected.js';
import type { CallPauses } from '../debug/call-pauses.js';
import { debugCommandHandlers } from '../debug/debug-commands.js';

export interface CommandDeps {
  log: Logger;
  controller: PtcNotebookController;
  bindings: SessionService;
  approvals: RuntimePathApprovals;
  inspector: InspectorPanels;
  sdk: SdkDocuments;
  choices: ModelChoices;
  cellStatus: CellStatusProvider;
  pauses: CallPauses;
  // the extension's folder (the shipped tour and fake model)
  extension: vscode.Uri;
}

// `ptcPlayground.openInspector [cell]`: the run inspector on the cell's latest result.
export function openInspector(inspector: InspectorPanels, arg?: unknown): CommandOutcome {
  const cell = targetCell(arg);
  if (cell === undefined) return noCell();
  return inspector.open(cell)
    ? { ok: true }
    : { ok: false, message: vscode.l10n.t('This cell has no result to inspect yet: run it first.') };
}

// Every contributed command; each handler resolves to something tests can assert (outcome, mode, uri).
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { log, controller, bindings, approvals, inspector, sdk, choices, cellStatus, pauses, extension } = deps;
  const withReport = (run: (arg?: unknown) => Promise<CommandOutcome> | CommandOutcome) => async (arg?: unknown) => {
    const outcome = await run(arg);
    void reportOutcome(outcome, arg).catch((error: unknown) => log.warn('could not show a command outcome', error));
    return outcome;
  };
  const handlers: Record<CommandId, (...args: unknown[]) => unknown> = {
    [COMMANDS.newNotebook]: (uri) => newNotebook(log, uri),
    [COMMANDS.openTour]: (folder) => openTour({ log, extension }, folder),
    [COMMANDS.showModelView]: async (arg) => {
      const notebook = targetNotebook(arg) ?? targetCell(arg)?.notebook;
      if (notebook === undefined) {
        void vscode.window.showInformationMessage(vscode.l10n.t('Open a PTC notebook to see what the model sees.'));
        return undefined;
      }
      const cell = targetCell(arg);
      const language = cell?.document.languageId === 'python' ? 'python' : 'typescript';
      await sdk.show(notebook, language);
      return sdk.uriFor(notebook, language);
    },
    [COMMANDS.switchMode]: (arg, mode) => switchMode(log, arg, mode),
    [COMMANDS.setCellMode]: (cell, mode) => setCellMode(log, cell, mode),
    [COMMANDS.recordCell]: withReport((arg) => recordCell(controller, log, arg)),
    [COMMANDS.replayCell]: withReport((arg) => replayCell(controller, arg)),
    [COMMANDS.openInspector]: withReport((arg) => openInspector(inspector, arg)),
    [COMMANDS.copyResultJson]: withReport((arg) => copyResultJson(arg)),
    [COMMANDS.restartBindings]: (arg) => restartBindings(bindings, arg),
    [COMMANDS.interruptBindings]: (arg) => interruptBindings(bindings, arg),
    // the notebook's bindings host status (state, module, why it crashed); for scripts and tests
    [COMMANDS.bindingsStatus]: (arg) => {
      const notebook = targetNotebook(arg);
      return notebook === undefined ? undefined : bindings.statusFor(notebook);
    },
    [COMMANDS.reviewRuntimePaths]: async () => {
      await approvals.reset();
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Interpreter path approvals cleared: the next run asks again.'),
      );
      return true;
    },
    [COMMANDS.acceptExpected]: withReport((arg) => acceptExpected(controller, log, arg)),
    // a running cell's live binding-call progress as its status bar shows it; for scripts and tests
    [COMMANDS.cellProgress]: (arg) => {
      const cell = targetCell(arg);
      return cell === undefined ? undefined : cellStatus.progressText(cell);
    },
    [COMMANDS.showLog]: () => {
      log.show();
      return true;
    },
    [COMMANDS.importTranscript]: (arg, selection) => importTranscript(log, arg, selection),
    [COMMANDS.saveRunTrace]: (arg, target) => saveRunTrace({ log, bindings }, arg, target),
    [COMMANDS.pickModel]: (arg) => pickModel(choices, arg),
    [COMMANDS.setModelKey]: (arg) => setModelKey(choices, arg),
    [COMMANDS.openModelSettings]: () => openModelSettings(),
    [COMMANDS.useFakeModel]: (arg) => useFakeModel(choices, arg),
    [COMMANDS.newTaskCell]: (arg) => newTaskCell(arg),
    [COMMANDS.stopCells]: withReport((arg) => stopCells(controller, arg)),
    [COMMANDS.setNotebookBindings]: (arg, file) => setNotebookBindings(log, arg, file),
    [COMMANDS.openFileAt]: (location) => openFileAt(location),
    ...debugCommandHandlers({ pauses, bindings, inspector }),
  };
  return Object.entries(handlers).map(([id, handler]) => vscode.commands.registerCommand(id, handler));
}
