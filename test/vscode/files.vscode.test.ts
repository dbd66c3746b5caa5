// Notebook files in a real VS Code: unreadable files open as an error and are never overwritten, an empty file is an
// empty notebook, and a run notebook saves its results in the stable format.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { NOTEBOOK_TYPE } from '../../extension/constants.js';
import {
  activateExtension,
  cellById,
  closeAllEditors,
  openNotebook,
  runCells,
  sleep,
  textOf,
  waitFor,
  workspaceUri,
} from './support/notebooks.js';

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
      await assert.rejects(Promise.resolve(vscode.workspace.openNotebookDocument(uri)), (error: Error) => {
        assert.match(error.message, /not a readable PTC notebook/);
        assert.match(error.message, detail);
        return true;
      });
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

  test('saving a run notebook writes its results in the stable format and keeps unknown metadata', async () => {
    const editor = await openNotebook('fixtures', 'save.ptcnb');
    const cell = cellById(editor.notebook, 'save-me');
    await runCells([cell]);
    assert.equal(cell.executionSummary?.success, true, textOf(cell));
    assert.ok(editor.notebook.isDirty, 'a new result makes the notebook dirty (outputs are saved by default)');
    await vscode.commands.executeCommand('workbench.action.files.save');
    await waitFor('the notebook to be saved', () => !editor.notebook.isDirty, 15_000);
    const text = readFileSync(editor.notebook.uri.fsPath, 'utf8');
    assert.ok(text.endsWith('}\n'), 'trailing newline');
    assert.match(
      text,
      /^\{\n {2}"version": 1,\n {2}"metadata": \{\n {4}"bindings": /,
      '2-space indent, known keys first',
    );
    const saved = JSON.parse(text) as {
      metadata: Record<string, unknown>;
      cells: {
        metadata?: { id?: string };
        outputs?: { kind: string; result?: { value?: unknown; logs?: string[] } }[];
      }[];
    };
    assert.deepEqual(saved.metadata['x-kept'], { note: 'unknown metadata survives a save' });
    const output = saved.cells.find((c) => c.metadata?.id === 'save-me')?.outputs?.[0];
    assert.equal(output?.kind, 'result');
    assert.equal(output?.result?.value, 'mock');
    assert.deepEqual(output?.result?.logs, ['saved with its result']);
  });
});
