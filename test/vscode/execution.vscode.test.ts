// Running cells in a real VS Code: cancellation leaves no mark and no process, the mock/live switch and per-cell
// modes pick the handlers, and the record/replay commands write and answer from the cell's cassette.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS } from '../../extension/constants.js';
import {
  cellById,
  openNotebook,
  resultOf,
  runCells,
  setCellSource,
  textOf,
  waitFor,
  workspaceUri,
  withExtension,
} from './support/notebooks.js';
import { alive, descendants, supported } from './support/processes.js';

type CommandOutcome = { ok: true; message?: string } | { ok: false; message: string };

suite('cell execution', () => {
  withExtension();

  for (const id of ['hang', 'hang-py']) {
    test(`stopping a running cell (${id}) ends it with neither ✓ nor ✗ and kills its process`, async () => {
      const editor = await openNotebook('fixtures', 'hang.ptcnb');
      const cell = cellById(editor.notebook, id);
      const sandboxed = (p: { cmdline: string }): boolean =>
        /node-child|ptc_runner|python|setpriv|unshare|bwrap/.test(p.cmdline);
      const before = descendants().filter(sandboxed);
      const since = Date.now() - 1;
      const running = vscode.commands.executeCommand('notebook.cell.execute', {
        ranges: [{ start: cell.index, end: cell.index + 1 }],
        document: editor.notebook.uri,
      });
      // the program printed, so its process is up and waiting on a promise that never settles
      await waitFor(
        `${id} to stream its first line`,
        () => /waiting for a (promise|future)/.test(textOf(cell)),
        60_000,
      );
      const during = descendants().filter(sandboxed);
      await vscode.commands.executeCommand('notebook.cell.cancelExecution', {
        ranges: [{ start: cell.index, end: cell.index + 1 }],
        document: editor.notebook.uri,
      });
      await running;
      await waitFor(
        `${id} to end after the stop`,
        () => (cell.executionSummary?.timing?.endTime ?? 0) >= since,
        30_000,
      );
      assert.equal(
        cell.executionSummary?.success,
        undefined,
        `a stopped cell shows neither ✓ nor ✗ (outputs: ${textOf(cell)})`,
      );
      if (supported()) {
        // the run's processes exit; what stays are spares, which the pool starts as a run begins (so already up while
        // the program waited): fewer sandboxed processes than then, and some process that was up then is gone
        const seen = [...before, ...during];
        const left = await waitFor(
          "the stopped program's processes to exit",
          () => {
            const live = descendants().filter(sandboxed);
            return seen.some((p) => !alive(p.pid)) && live.length < during.length ? [] : false;
          },
          20_000,
        ).catch(() => descendants().filter(sandboxed));
        assert.deepEqual(
          left.map((p) => `${p.pid} ${p.cmdline}`),
          [],
          `processes left after the stop (while it waited: ${during.map((p) => p.pid).join(', ') || 'none'})`,
        );
      }
      // the notebook is still usable: the next cell runs normally
      const after = cellById(editor.notebook, 'after');
      await runCells([after]);
      assert.equal(resultOf(after).value, 'the next run works');
      assert.equal(after.executionSummary?.success, true);
    });
  }

  test('the mock/live switch and per-cell modes choose the handlers', async () => {
    const editor = await openNotebook('fixtures', 'modes.ptcnb');
    const doc = editor.notebook;
    const cells = [cellById(doc, 'which'), cellById(doc, 'which-py')];
    await runCells(cells);
    for (const cell of cells) {
      assert.equal(resultOf(cell).value, 'mock', `${String(cell.metadata.id)}: ${textOf(cell)}`);
      assert.equal(resultOf(cell).mode, 'mock');
      // the extension host's own Node (code-server's, cached under the home directory) and Python: the whole
      // sandbox holds for both, inherited descriptors closed and a cgroup per run included
      const { sandbox } = resultOf(cell);
      assert.equal(sandbox.enforcement, 'full', `${String(cell.metadata.id)}: ${JSON.stringify(sandbox)}`);
      assert.ok(
        sandbox.mechanisms.includes('only stdio and the wire cross: inherited descriptors closed'),
        JSON.stringify(sandbox.mechanisms),
      );
      assert.ok(
        sandbox.mechanisms.some((m) => m.startsWith('a cgroup per run')),
        JSON.stringify(sandbox),
      );
    }
    const switched = await vscode.commands.executeCommand<string | undefined>(COMMANDS.switchMode, doc.uri, 'live');
    assert.equal(switched, 'live');
    assert.equal(doc.metadata.mode, 'live', 'the mode is stored in the notebook metadata');
    await runCells(cells);
    for (const cell of cells)
      assert.equal(resultOf(cell).value, 'live', `${String(cell.metadata.id)} after the switch: ${textOf(cell)}`);
    // a cell's own mode wins over the notebook's
    await vscode.commands.executeCommand(COMMANDS.setCellMode, cells[0], 'mock');
    assert.equal(cellById(doc, 'which').metadata.mode, 'mock');
    await runCells(cells);
    assert.equal(resultOf(cellById(doc, 'which')).value, 'mock');
    assert.equal(resultOf(cellById(doc, 'which-py')).value, 'live');
  });

  test("record writes the cell's cassette; replay answers from it and reports divergence", async () => {
    const editor = await openNotebook('fixtures', 'record.ptcnb');
    const cell = cellById(editor.notebook, 'roll');
    const cassette = workspaceUri('fixtures', '.ptc', 'cassettes', 'record', 'roll.json').fsPath;
    assert.equal(existsSync(cassette), false, 'no cassette before recording');

    const missing = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.replayCell, cell);
    assert.equal(missing.ok, false, 'replaying without a cassette is refused');
    assert.match(missing.ok ? '' : missing.message, /Record the cell first/);

    const recorded = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.recordCell, cell);
    assert.ok(recorded.ok, `record failed: ${recorded.ok ? '' : recorded.message} ${textOf(cell)}`);
    assert.ok(existsSync(cassette), `the cassette was written to ${cassette}`);
    const live = resultOf(cell);
    assert.equal(live.mode, 'live', 'recording runs the live handlers');
    assert.equal(live.calls.length, 2);
    const saved = JSON.parse(readFileSync(cassette, 'utf8')) as { calls: unknown[] };
    assert.equal(saved.calls.length, 2, 'both calls are in the cassette');

    const replayed = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.replayCell, cell);
    assert.ok(replayed.ok, `replay failed: ${replayed.ok ? '' : replayed.message} ${textOf(cell)}`);
    const again = resultOf(cell);
    assert.equal(again.mode, 'replay');
    assert.deepEqual(again.value, live.value, 'the replay returns the recorded (random) rolls');
    assert.ok(
      again.calls.length === 2 && again.calls.every((c) => c.replayed === true),
      `every call is answered from the cassette: ${JSON.stringify(again.calls)}`,
    );

    // a program that asks for something the cassette does not hold diverges
    await setCellSource(cell, 'return await dice.roll({ sides: 12 });');
    const diverged = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.replayCell, cell);
    assert.equal(diverged.ok, false, 'a diverging replay is reported');
    assert.match(diverged.ok ? '' : diverged.message, /diverged/);
    assert.equal(resultOf(cell).replay?.diverged.length, 1);
  });
});
