// Restricted Mode in a real VS Code (the launcher opens this pass in an untrusted folder): notebooks open, but no
// cell runs, each says why, and no process is started.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RESULT_MIME } from '../../extension/constants.js';
import { activateExtension, cellById, closeAllEditors, codeCells, MARKDOWN_MIME, mimesOf, openNotebook, runCells, textOf } from './support/notebooks.js';
import { descendants, supported } from './support/processes.js';

suite('Restricted Mode', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(async () => {
    await closeAllEditors();
  });

  test('the workspace is not trusted', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this pass must run in Restricted Mode');
  });

  test('cells of the tour do not run and say why', async () => {
    const editor = await openNotebook('examples', 'tour.ptcnb');
    const cells = [cellById(editor.notebook, 'ts-mock'), cellById(editor.notebook, 'py-mock')];
    const before = new Set(descendants().map((p) => p.pid));
    await runCells(cells);
    for (const cell of cells) {
      assert.equal(cell.executionSummary?.success, false, `cell ${cell.index + 1} is marked as not run`);
      const mimes = mimesOf(cell).flat();
      assert.ok(!mimes.includes(RESULT_MIME), 'no result: the program never ran');
      assert.ok(mimes.includes(MARKDOWN_MIME), 'the reason is shown as markdown');
      assert.match(textOf(cell), /Restricted Mode/);
      assert.match(textOf(cell), /bindings module/);
    }
    if (supported()) {
      const started = descendants().filter((p) => !before.has(p.pid) && /node-child|ptc_runner|python|esbuild/.test(p.cmdline));
      assert.deepEqual(started.map((p) => p.cmdline), [], 'nothing was spawned: no program, no bindings module');
    }
    assert.ok(codeCells(editor.notebook).length >= cells.length);
  });
});
