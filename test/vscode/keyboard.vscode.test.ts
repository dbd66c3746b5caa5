// Keyboard-first use (issue 29): after editing one cell, Esc and ↓×N, every palette command acts on the cell the
// notebook's selection reached (never the cell last edited), and Stop Running Cells stops a runaway cell from anywhere.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS, EXTENSION_ID, TASK_LANGUAGE } from '../../extension/constants.js';
import { problemCommand } from '../../extension/renderer/problem-actions.js';
import {
  cellById,
  finished,
  openNotebook,
  problemOf,
  resultOf,
  runCells,
  textOf,
  waitFor,
  withExtension,
  workspaceUri,
} from './support/notebooks.js';

type CommandOutcome = { ok: true; message?: string } | { ok: false; message: string };

const said = (outcome: CommandOutcome | undefined): string =>
  outcome === undefined ? 'no outcome' : outcome.ok ? (outcome.message ?? 'ok') : outcome.message;

// Esc then ↓ from the top: what a person does with the keyboard (list.focusDown is the command ↓ runs in command mode).
async function arrowDownTo(index: number): Promise<void> {
  await vscode.commands.executeCommand('notebook.focusTop');
  await waitFor('the selection at the top', () => vscode.window.activeNotebookEditor?.selection.start === 0, 10_000);
  for (let i = 0; i < index; i++) await vscode.commands.executeCommand('list.focusDown');
  await waitFor(
    `↓×${index} to reach cell ${index + 1}`,
    () => vscode.window.activeNotebookEditor?.selection.start === index,
    10_000,
  );
}

function inspectorTabLabels(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .flatMap((t) => (t.input instanceof vscode.TabInputWebview ? [t.label] : []));
}

suite('issue 29: keyboard-first', () => {
  withExtension();
  // Accept as Expected saves the notebook: the fixture goes back to what it was, so no other suite sees a test in it
  let original: Buffer | undefined;
  suiteSetup(() => {
    original = readFileSync(workspaceUri('fixtures', 'keyboard.ptcnb').fsPath);
  });
  teardown(() => {
    if (original !== undefined) writeFileSync(workspaceUri('fixtures', 'keyboard.ptcnb').fsPath, original);
  });

  test('after editing one cell, Esc and ↓×N, every palette command acts on the cell the selection reached', async function () {
    // ten runs (record, replay, accept…) on a loaded 2-core machine
    this.timeout(480_000);
    const editor = await openNotebook('fixtures', 'keyboard.ptcnb');
    const doc = editor.notebook;
    const cells = Array.from({ length: 10 }, (_, i) => cellById(doc, `k${i + 1}`));
    // the cell edited before, the cell ↓ reaches, and the next one have results
    const ran = [cells[1]!, cells[8]!, cells[9]!];
    await runCells(ran, 240_000);
    for (const cell of ran) assert.equal(resultOf(cell).value, `cell ${cell.index}`, textOf(cell));
    // type in cell 2 (its editor becomes window.activeTextEditor), then Esc: VS Code leaves activeTextEditor there
    const edited = cells[1]!;
    editor.selections = [new vscode.NotebookRange(edited.index, edited.index + 1)];
    await vscode.commands.executeCommand('notebook.cell.edit');
    await waitFor('focus in cell 2', () => vscode.window.activeTextEditor?.document === edited.document, 10_000);
    await vscode.commands.executeCommand('notebook.cell.quitEdit');
    const target = cells[8]!; // "cell 9", a Python cell
    await arrowDownTo(target.index);
    // the window's activeTextEditor still shows the edited cell here: acting on it was the bug
    const stale = vscode.window.activeTextEditor?.document === edited.document;
    console.log(`after ↓×${target.index}: activeTextEditor ${stale ? 'is still the edited cell 2' : 'moved on'}`);

    const copied = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.copyResultJson);
    assert.ok(copied.ok, `Copy Result as JSON: ${said(copied)}`);
    assert.equal((JSON.parse(await vscode.env.clipboard.readText()) as { value: unknown }).value, 'cell 9');

    const trace = workspaceUri('fixtures', `keyboard-${Date.now()}.trace.jsonl`);
    const saved = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.saveRunTrace, undefined, trace);
    assert.ok(saved.ok, `Save Run Trace: ${said(saved)}`);
    assert.match(readFileSync(trace.fsPath, 'utf8'), /cell 9/);

    await vscode.commands.executeCommand(COMMANDS.setCellMode, undefined, 'live');
    assert.deepEqual(
      doc.getCells().flatMap((c) => (c.metadata.mode === undefined ? [] : [[c.metadata.id, c.metadata.mode]])),
      [['k9', 'live']],
      'Set Cell Mode changed only cell 9',
    );
    await vscode.commands.executeCommand(COMMANDS.setCellMode, undefined, 'inherit');

    const recorded = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.recordCell);
    assert.ok(recorded.ok, `Record: ${said(recorded)}`);
    assert.equal(resultOf(target).mode, 'live');
    const replayed = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.replayCell);
    assert.ok(replayed.ok, `Replay: ${said(replayed)}`);
    assert.equal(resultOf(target).mode, 'replay');
    assert.equal(resultOf(target).value, 'cell 9');

    const accepted = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.acceptExpected);
    assert.ok(accepted.ok, `Accept as Expected: ${said(accepted)}`);
    assert.deepEqual(
      doc.getCells().flatMap((c) => (c.metadata.expect === undefined ? [] : [c.metadata.id])),
      ['k9'],
      'Accept as Expected wrote only cell 9',
    );
    for (const other of ran.filter((c) => c !== target))
      assert.equal(resultOf(other).mode, 'mock', `cell ${other.index} was not run again`);

    // the commands that open an editor beside the notebook: What the Model Sees (Python for cell 9), then one more ↓
    const model = await vscode.commands.executeCommand<vscode.Uri | undefined>(COMMANDS.showModelView);
    assert.match(
      decodeURIComponent(model?.toString() ?? ''),
      /\(python\) model view/,
      `What the Model Sees for a Python cell: ${model?.toString()}`,
    );
    await vscode.window.showNotebookDocument(doc);
    await arrowDownTo(cells[9]!.index);
    const inspected = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.openInspector);
    assert.ok(inspected.ok, `Open Run Inspector: ${said(inspected)}`);
    await waitFor(
      'the inspector on cell 11',
      () => inspectorTabLabels().find((l) => l.endsWith(`cell ${cells[9]!.index + 1}`)),
      20_000,
    );
  });

  test('Stop Running Cells (Alt+Shift+S) stops a runaway cell while the selection is elsewhere', async function () {
    this.timeout(300_000);
    const editor = await openNotebook('fixtures', 'keyboard.ptcnb');
    const doc = editor.notebook;
    const spin = cellById(doc, 'spin');
    const since = Date.now() - 1;
    const running = vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: spin.index, end: spin.index + 1 }],
      document: doc.uri,
    });
    await waitFor(
      'the runaway cell to make calls',
      async () =>
        ((await vscode.commands.executeCommand<string | undefined>(COMMANDS.cellProgress, spin)) ?? '').length > 0,
      90_000,
    );
    // the keyboard moved away: the built-in Stop Cell Execution would act on this (idle) cell
    await arrowDownTo(3);
    const idle = await vscode.commands.executeCommand<CommandOutcome & { stopped?: number }>(COMMANDS.stopCells);
    assert.ok(idle.ok, said(idle));
    assert.equal(idle.stopped, 1, 'the running cell was stopped');
    await waitFor('the runaway cell to end', () => finished(spin, since), 30_000);
    await running;
    assert.equal(resultOf(spin).error?.kind, 'abort', textOf(spin));
    const nothing = await vscode.commands.executeCommand<CommandOutcome & { stopped?: number }>(COMMANDS.stopCells);
    assert.equal(nothing.stopped, 0, 'nothing left to stop');
    const manifest = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
      contributes: { keybindings: { command: string; key: string }[] };
    };
    assert.equal(manifest.contributes.keybindings.find((k) => k.command === COMMANDS.stopCells)?.key, 'alt+shift+s');
  });

  test('in live mode a runaway cell stops at the call budget (1,000 by default, or its own metadata.limits.maxCalls)', async function () {
    this.timeout(300_000);
    const editor = await openNotebook('fixtures', 'keyboard.ptcnb');
    const spin = cellById(editor.notebook, 'spin');
    await vscode.commands.executeCommand(COMMANDS.setCellMode, spin, 'live');
    await runCells([spin], 180_000);
    const live = resultOf(spin);
    assert.equal(live.mode, 'live');
    assert.equal(live.error?.kind, 'call-limit', textOf(spin));
    assert.match(live.error?.message ?? '', /maxCalls 1000\b/);
    // the cell's own budget wins
    const edit = new vscode.WorkspaceEdit();
    edit.set(editor.notebook.uri, [
      vscode.NotebookEdit.updateCellMetadata(spin.index, {
        ...spin.metadata,
        limits: { timeoutMs: 600_000, maxCalls: 40 },
      }),
    ]);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await runCells([spin], 180_000);
    assert.equal(resultOf(spin).error?.kind, 'call-limit', textOf(spin));
    assert.match(resultOf(spin).error?.message ?? '', /maxCalls 40\b/);
  });

  test('Set Notebook Bindings… stores the module relative to the notebook, and a cell that cannot load its bindings offers it', async function () {
    this.timeout(300_000);
    const editor = await openNotebook('fixtures', 'keyboard.ptcnb');
    const doc = editor.notebook;
    const cell = cellById(doc, 'k2');
    const missing = await vscode.commands.executeCommand<string | undefined>(
      COMMANDS.setNotebookBindings,
      doc.uri,
      workspaceUri('fixtures', 'gone.bindings.mjs'),
    );
    assert.equal(missing, 'gone.bindings.mjs');
    assert.equal(doc.metadata.bindings, 'gone.bindings.mjs');
    await runCells([cell], 120_000);
    // the output's first button (the UI pass clicks it in the real workbench and sees the picker open)
    const problem = problemOf(cell);
    assert.deepEqual(problem.actions, ['set-notebook-bindings', 'show-log'], JSON.stringify(problem));
    assert.equal(cell.executionSummary?.success, false);
    // the button's command, with the notebook the output is in, answered with a file as the picker would be
    const [command, ...args] = problemCommand('set-notebook-bindings', doc);
    assert.equal(command, COMMANDS.setNotebookBindings);
    const picked = await vscode.commands.executeCommand<string | undefined>(
      command,
      ...args,
      workspaceUri('fixtures', 'runaway.bindings.mjs'),
    );
    assert.equal(picked, 'runaway.bindings.mjs');
    await runCells([cell], 120_000);
    assert.equal(resultOf(cell).value, 'cell 2', textOf(cell));
  });

  test('Add Task Cell inserts below the cell ↓ reached, selects it and scrolls to it', async () => {
    const editor = await openNotebook('fixtures', 'keyboard.ptcnb');
    const doc = editor.notebook;
    await arrowDownTo(3);
    const cell = await vscode.commands.executeCommand<vscode.NotebookCell | undefined>(COMMANDS.newTaskCell);
    assert.ok(cell, 'a task cell was added');
    assert.equal(cell.index, 4, 'below the selected cell 4, not above the title');
    assert.equal(cell.document.languageId, TASK_LANGUAGE);
    assert.equal(doc.cellAt(0).kind, vscode.NotebookCellKind.Markup, 'the title stays first');
    await waitFor('the new cell selected', () => vscode.window.activeNotebookEditor?.selection.start === 4, 10_000);
  });
});
