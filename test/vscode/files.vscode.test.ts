// Notebook files in a real VS Code: unreadable files open as an error and are never overwritten, an empty file is an
// empty notebook, and a run notebook saves its results in the stable format.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../../extension/constants.js';
import { activateExtension, cellById, closeAllEditors, openNotebook, runCells, sleep, workspaceUri } from './support/notebooks.js';

const UNREADABLE = [
  { file: 'corrupt-field.ptcnb', detail: /line 7|source/ },
  { file: 'corrupt-truncated.ptcnb', detail: /line \d+/ },
  { file: 'future-version.ptcnb', detail: /version/ },
];

suite('notebook files', () => {
  suiteSetup(async () => {
    await activateExtension();
  });
  teardown(async () => {
    await closeAllEditors();
  });

  for (const { file, detail } of UNREADABLE) {
    test(`${file} opens with an error naming the problem and is not overwritten`, async () => {
      const uri = workspaceUri('fixtures', file);
      const bytes = readFileSync(uri.fsPath);
      await assert.rejects(
        Promise.resolve(vscode.workspace.openNotebookDocument(uri)),
        (error: Error) => {
          assert.match(error.message, /not a readable PTC notebook/);
          assert.match(error.message, detail);
          return true;
        },
      );
      // the way a person opens it: the editor shows the error in place of a notebook
      await vscode.commands.executeCommand('vscode.openWith', uri, NOTEBOOK_TYPE);
      await sleep(500);
      assert.equal(
        vscode.workspace.notebookDocuments.some((d) => d.uri.toString() === uri.toString()),
        false,
        'no notebook model exists for the unreadable file, so nothing can save over it',
      );
      await vscode.commands.executeCommand('workbench.action.files.saveAll');
      await sleep(500);
      assert.deepEqual(readFileSync(uri.fsPath), bytes, 'the file is byte for byte unchanged');
    });
  }

  test('a zero-byte file opens as an empty notebook', async () => {
    const document = await vscode.workspace.openNotebookDocument(workspaceUri('fixtures', 'empty.ptcnb'));
    assert.equal(document.cellCount, 0);
  });

  test('saving a run notebook writes its results in the stable format', async () => {
    const editor = await openNotebook('fixtures', 'modes.ptcnb');
    const cell = cellById(editor.notebook, 'which');
    await runCells([cell]);
    assert.ok(await editor.notebook.save(), 'save succeeded');
    const text = readFileSync(editor.notebook.uri.fsPath, 'utf8');
    assert.ok(text.endsWith('}\n'), 'trailing newline');
    assert.match(text, /^\{\n {2}"version": 1,\n {2}"metadata": \{/, '2-space indent, known keys first');
    const saved = JSON.parse(text) as { cells: { metadata?: { id?: string }; outputs?: { kind: string; result?: { value?: unknown } }[] }[] };
    const which = saved.cells.find((c) => c.metadata?.id === 'which');
    assert.equal(which?.outputs?.[0]?.kind, 'result');
    assert.equal(which?.outputs?.[0]?.result?.value, 'mock');
  });
});
