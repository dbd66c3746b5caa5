import * as vscode from 'vscode';
import { checkExpectation, expectationFromResult, writeRunCassette } from '../../runtime/index.js';
import type { CommandOutcome } from '../commands/cell-commands.js';
import { targetCell } from '../commands/target-cell.js';
import type { PtcNotebookController } from '../execution/controller.js';
import type { Logger } from '../log/logger.js';
import { cassettePathOf } from '../notebook/cassette-path.js';
import { latestPayload } from '../notebook/cell-results.js';
import { outputMetaOf } from '../notebook/output-meta.js';
import { resultOutput } from '../notebook/result-output.js';
import { expectationOf } from './expectation-of.js';

// `ptcPlayground.acceptExpected`: the cell's latest run becomes what it must produce (`metadata.expect`, keeping the
// match modes and masks of an earlier expectation) and its binding answers become the cell's cassette, so the
// Test Explorer and `ptc test` replay it offline. A replayed or recorded run already has its cassette.
export async function acceptExpected(
  controller: PtcNotebookController,
  log: Logger,
  arg?: unknown,
): Promise<CommandOutcome> {
  const cell = targetCell(arg);
  if (cell === undefined || cell.kind !== vscode.NotebookCellKind.Code)
    return { ok: false, message: vscode.l10n.t('Select a code cell of a PTC notebook first.') };
  const latest = latestPayload(cell);
  if (latest === undefined)
    return { ok: false, message: vscode.l10n.t('This cell has no result to accept yet: run it first.') };
  const { result } = latest.payload;
  if (result.error?.kind === 'abort')
    return {
      ok: false,
      message: vscode.l10n.t('A cancelled run cannot be the expected one: run the cell to the end first.'),
    };
  const meta = outputMetaOf(latest.output.metadata);
  const recorded = meta?.kind === 'result' && meta.cassette !== undefined;
  let cassetteNote = '';
  if (result.mode !== 'replay' && !recorded) {
    const file = cassettePathOf(cell);
    if (file === undefined)
      return { ok: false, message: vscode.l10n.t('Only notebooks stored on the local disk can keep a cassette.') };
    const written = await writeRunCassette(file, result);
    if (!written.ok) return { ok: false, message: vscode.l10n.t('Not accepted: {0}', written.message) };
    log.info(`accepted cell ${cell.index + 1}: wrote ${written.calls} call(s) to ${written.path}`);
    cassetteNote = vscode.l10n.t(
      ' and its {0} call(s) to {1}',
      written.calls,
      vscode.workspace.asRelativePath(written.path),
    );
  }
  const expect = expectationFromResult(result, expectationOf(cell.metadata));
  const edit = new vscode.WorkspaceEdit();
  edit.set(cell.notebook.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, expect })]);
  if (!(await vscode.workspace.applyEdit(edit)))
    return { ok: false, message: vscode.l10n.t('The expectation could not be stored in the cell.') };
  // the shown run now meets the expectation: say so where the mismatch was
  const { payload } = latest;
  await controller.restamp(
    cell,
    resultOutput(result, {
      program: payload.program ?? cell.document.getText(),
      cellId: payload.cellId,
      ...(payload.timeoutMs === undefined ? {} : { timeoutMs: payload.timeoutMs }),
      ...(meta?.kind === 'result' && meta.cassette !== undefined ? { cassette: meta.cassette } : {}),
      expectation: checkExpectation(expect, result),
    }),
    result.error === undefined,
  );
  log.info(
    `accepted the latest run of cell ${cell.index + 1} of ${vscode.workspace.asRelativePath(cell.notebook.uri)} as expected`,
  );
  return { ok: true, message: vscode.l10n.t('Accepted the run as expected{0}.', cassetteNote) };
}
