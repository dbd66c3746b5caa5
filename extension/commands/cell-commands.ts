import { encodeChecked, prettyJson, type JsonValue } from '../../runtime/index.js';
import * as vscode from 'vscode';
import { COMMANDS } from '../constants.js';
import type { PtcNotebookController } from '../execution/controller.js';
import type { Logger } from '../log/logger.js';
import { latestPayload } from '../notebook/cell-results.js';
import { cassettePathOf, hasCassette } from '../notebook/cassette-path.js';
import { latestResultMeta } from '../notebook/output-meta.js';
import { targetCell } from './target-cell.js';

export type CommandOutcome = { ok: true; message?: string } | { ok: false; message: string };

export function codeCell(arg: unknown): vscode.NotebookCell | undefined {
  const cell = targetCell(arg);
  return cell?.kind === vscode.NotebookCellKind.Code ? cell : undefined;
}

export const noCell = (): CommandOutcome => ({
  ok: false,
  message: vscode.l10n.t('Select a code cell of a PTC notebook first.'),
});

const notRun = (): CommandOutcome => ({
  ok: false,
  message: vscode.l10n.t('The cell was not run (is the PTC Playground controller selected?).'),
});

// `ptcPlayground.recordCell`: runs the cell with live handlers (what the real tools answer is what is worth replaying;
// a cell whose own mode is `mock` keeps it) and writes its calls to the cell's cassette.
export async function recordCell(
  controller: PtcNotebookController,
  log: Logger,
  arg?: unknown,
): Promise<CommandOutcome> {
  const cell = codeCell(arg);
  if (cell === undefined) return noCell();
  const ran = await controller.executeWithOverride(cell, { mode: 'live', force: { mode: 'record' } });
  if (!ran) return notRun();
  const meta = latestResultMeta(cell.outputs);
  if (meta?.cassette === undefined) {
    return {
      ok: false,
      message: vscode.l10n.t('Nothing was recorded; see the cell output and the PTC Playground log.'),
    };
  }
  log.info(`recorded cell ${cell.index + 1} to ${meta.cassette}`);
  return {
    ok: true,
    message: vscode.l10n.t(
      'Recorded {0} call(s) to {1}',
      meta.callCount,
      vscode.workspace.asRelativePath(meta.cassette),
    ),
  };
}

// `ptcPlayground.replayCell`: runs the cell with every binding call answered from its cassette (no handler runs).
export async function replayCell(controller: PtcNotebookController, arg?: unknown): Promise<CommandOutcome> {
  const cell = codeCell(arg);
  if (cell === undefined) return noCell();
  if (!hasCassette(cell)) {
    const cassette = cassettePathOf(cell);
    return {
      ok: false,
      message: vscode.l10n.t(
        'No cassette for this cell yet ({0}). Record the cell first.',
        cassette === undefined ? '?' : vscode.workspace.asRelativePath(cassette),
      ),
    };
  }
  const ran = await controller.executeWithOverride(cell, { force: { mode: 'replay' } });
  if (!ran) return notRun();
  const meta = latestResultMeta(cell.outputs);
  if (meta?.replay !== undefined && meta.replay.diverged > 0) {
    return {
      ok: false,
      message: vscode.l10n.t('The replay diverged: {0} call(s) had no match in the cassette.', meta.replay.diverged),
    };
  }
  return { ok: true };
}

// `ptcPlayground.copyResultJson`: the cell's latest RunResult as pretty JSON on the clipboard.
export async function copyResultJson(arg?: unknown): Promise<CommandOutcome> {
  const cell = codeCell(arg);
  const latest = cell === undefined ? undefined : latestPayload(cell);
  if (latest === undefined) return { ok: false, message: vscode.l10n.t('This cell has no result to copy yet.') };
  const value = latest.payload.result as unknown as JsonValue;
  let text: string;
  try {
    text = prettyJson(value);
  } catch {
    text = encodeChecked(value, 0);
  }
  await vscode.env.clipboard.writeText(text);
  return { ok: true, message: vscode.l10n.t('Copied the result ({0} characters).', text.length) };
}

// Shows a command's outcome the way users expect: errors as warnings (with a Record button where it helps).
export async function reportOutcome(outcome: CommandOutcome, cellArg?: unknown): Promise<void> {
  if (outcome.ok) {
    if (outcome.message !== undefined) void vscode.window.showInformationMessage(outcome.message);
    return;
  }
  const record = vscode.l10n.t('Record');
  const wantsRecord = outcome.message.includes(vscode.l10n.t('Record the cell first.'));
  const answer = await vscode.window.showWarningMessage(outcome.message, ...(wantsRecord ? [record] : []));
  if (answer === record) await vscode.commands.executeCommand(COMMANDS.recordCell, cellArg);
}
