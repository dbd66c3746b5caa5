// Helpers for the extension-host suites: open notebooks from the test workspace, run cells through VS Code's own
// commands (as a person would), and read back the outputs the extension wrote.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CONTROLLER_ID, EXTENSION_ID, NOTEBOOK_TYPE, PROBLEM_MIME, RESULT_MIME } from '../../../extension/constants.js';
import type { ProblemPayload } from '../../../webview/protocol/index.js';
import { eventually } from '../../helpers/eventually.js';

export const ERROR_MIME = 'application/vnd.code.notebook.error';

// The folder the launcher opened (a temp copy of examples/ and test/vscode/fixtures/).
export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the launcher opened no workspace folder');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

// Polls until check returns a value other than undefined/false; fails with `what` after timeoutMs (the one polling
// loop of every suite: test/helpers/eventually.ts).
export function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  return eventually(what, check, { timeoutMs });
}

// Activates the installed extension (the launchers install the packaged VSIX) and returns it.
export async function activateExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not installed in this VS Code`);
  await extension.activate();
  return extension;
}

// Opens a workspace notebook in an editor with the PTC Playground controller selected.
export async function openNotebook(...segments: string[]): Promise<vscode.NotebookEditor> {
  const document = await vscode.workspace.openNotebookDocument(workspaceUri(...segments));
  assert.equal(document.notebookType, NOTEBOOK_TYPE);
  const editor = await vscode.window.showNotebookDocument(document);
  await vscode.commands.executeCommand('notebook.selectKernel', {
    notebookEditor: editor,
    id: CONTROLLER_ID,
    extension: EXTENSION_ID,
  });
  return editor;
}

export function codeCells(document: vscode.NotebookDocument): vscode.NotebookCell[] {
  return document.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
}

export function cellById(document: vscode.NotebookDocument, id: string): vscode.NotebookCell {
  const cell = document.getCells().find((c) => c.metadata.id === id);
  assert.ok(cell, `no cell with id ${id} in ${document.uri.path}`);
  return cell;
}

// A cell has finished once VS Code recorded an end time for its latest execution.
export function finished(cell: vscode.NotebookCell, since: number): boolean {
  const end = cell.executionSummary?.timing?.endTime;
  return end !== undefined && end >= since;
}

// Runs cells through `notebook.cell.execute` (the command the run button invokes) and waits until each finished.
export async function runCells(cells: readonly vscode.NotebookCell[], timeoutMs = 120_000): Promise<void> {
  if (cells.length === 0) return;
  const document = cells[0]!.notebook;
  const since = Date.now() - 1;
  const ranges = cells.map((c) => ({ start: c.index, end: c.index + 1 }));
  await vscode.commands.executeCommand('notebook.cell.execute', { ranges, document: document.uri });
  await waitFor(
    `cells ${cells.map((c) => c.index + 1).join(', ')} of ${document.uri.path} to finish`,
    () => cells.every((c) => finished(c, since)),
    timeoutMs,
  );
}

// Runs every cell (`notebook.execute`, the toolbar's Run All) and waits until every code cell finished.
export async function runAll(editor: vscode.NotebookEditor, timeoutMs = 180_000): Promise<void> {
  const since = Date.now() - 1;
  await vscode.commands.executeCommand('notebook.execute', editor.notebook.uri);
  const cells = codeCells(editor.notebook);
  await waitFor(
    `all ${cells.length} code cells of ${editor.notebook.uri.path} to finish`,
    () => cells.every((c) => finished(c, since)),
    timeoutMs,
  );
}

export interface DecodedResult {
  language: string;
  value?: unknown;
  logs: string[];
  error?: { kind: string; message: string; location?: { line: number; column?: number } };
  calls: { global: string; name: string; ok: boolean; value?: unknown; replayed?: boolean }[];
  mode?: string;
  replay?: { matched: number; diverged: unknown[]; unused: number };
  sandbox: { enforcement: string; mechanisms: string[]; missing?: string[] };
}

export function mimesOf(cell: vscode.NotebookCell): string[][] {
  return cell.outputs.map((o) => o.items.map((i) => i.mime));
}

// The RunResult inside the cell's result output (RESULT_MIME); fails when the cell has none.
export function resultOf(cell: vscode.NotebookCell): DecodedResult {
  const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === RESULT_MIME);
  assert.ok(
    item,
    `cell ${cell.index + 1} has no ${RESULT_MIME} output; outputs: ${JSON.stringify(mimesOf(cell))} ${textOf(cell)}`,
  );
  const payload = JSON.parse(new TextDecoder().decode(item.data)) as { result: DecodedResult };
  return payload.result;
}

// The payload of the cell's problem output (PROBLEM_MIME: the message, its file links and action buttons, as the
// renderer draws them); fails when the cell has none.
export function problemOf(cell: vscode.NotebookCell): ProblemPayload {
  const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === PROBLEM_MIME);
  assert.ok(
    item,
    `cell ${cell.index + 1} has no ${PROBLEM_MIME} output; outputs: ${JSON.stringify(mimesOf(cell))} ${textOf(cell)}`,
  );
  return JSON.parse(new TextDecoder().decode(item.data)) as ProblemPayload;
}

// Every text/* and error item of the cell, decoded, for assertions and failure messages.
export function textOf(cell: vscode.NotebookCell): string {
  return cell.outputs
    .flatMap((o) => o.items)
    .filter(
      (i) =>
        i.mime.startsWith('text/') || i.mime === ERROR_MIME || i.mime.startsWith('application/vnd.code.notebook.std'),
    )
    .map((i) => new TextDecoder().decode(i.data))
    .join('\n');
}

// Replaces the source of a cell (what typing in the editor does) through a workspace edit.
export async function setCellSource(cell: vscode.NotebookCell, source: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const doc = cell.document;
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), source);
  assert.ok(await vscode.workspace.applyEdit(edit), `could not edit cell ${cell.index + 1}`);
}

// Suite hooks shared by the trusted suites: the extension is active before the first test, and every test leaves no
// editor (and no unsaved edit) behind for the next one.
export function withExtension(): void {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(async () => {
    await revertAndClose().catch(() => undefined);
    await closeAllEditors();
  });
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

// Reverts and closes the active editor, so a test's edits never reach the disk or the next test.
export async function revertAndClose(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
}
