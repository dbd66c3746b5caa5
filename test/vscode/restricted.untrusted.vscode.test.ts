// Restricted Mode in a real VS Code (the launcher opens this pass in a folder nobody trusted): notebooks open and
// show their contents, but running a cell starts nothing — VS Code asks for trust first, and the extension itself
// refuses while the workspace stays untrusted — so no result appears and no process is spawned.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RESULT_MIME } from '../../extension/constants.js';
import { activateExtension, cellById, codeCells, mimesOf, openNotebook, sleep, textOf } from './support/notebooks.js';
import { descendants, supported } from './support/processes.js';

// how long a refused run is watched for any sign of execution
const WATCH_MS = 8_000;

suite('Restricted Mode', () => {
  suiteSetup(async () => {
    await activateExtension();
  });

  test('the workspace is not trusted', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'this pass must run in Restricted Mode');
  });

  test('the tour opens with its cells, but running them produces no result and spawns nothing', async () => {
    const editor = await openNotebook('examples', 'tour.ptcnb');
    assert.ok(codeCells(editor.notebook).length >= 10, 'the notebook opened with its cells');
    const cells = [cellById(editor.notebook, 'ts-mock'), cellById(editor.notebook, 'py-mock')];
    const before = new Set(descendants().map((p) => p.pid));
    // not awaited: VS Code answers the request with a modal trust prompt that nobody in this pass accepts
    void vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: cells.map((c) => ({ start: c.index, end: c.index + 1 })),
      document: editor.notebook.uri,
    });
    const deadline = Date.now() + WATCH_MS;
    while (Date.now() < deadline) {
      for (const cell of cells) {
        const mimes = mimesOf(cell).flat();
        assert.ok(
          !mimes.includes(RESULT_MIME),
          `cell ${cell.index + 1} produced a result in Restricted Mode: ${textOf(cell)}`,
        );
        assert.notEqual(cell.executionSummary?.success, true, `cell ${cell.index + 1} shows ✓ in Restricted Mode`);
        // if a run does reach the extension, it must say why it refused
        if (mimes.length > 0) assert.match(textOf(cell), /Restricted Mode/);
      }
      if (supported()) {
        const started = descendants().filter(
          (p) => !before.has(p.pid) && /node-child|ptc_runner|python|esbuild/.test(p.cmdline),
        );
        assert.deepEqual(
          started.map((p) => p.cmdline),
          [],
          'nothing was spawned: no program, no bindings module',
        );
      }
      await sleep(250);
    }
  });
});
