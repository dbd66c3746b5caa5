// The bindings host in a real VS Code: a handler stuck in a synchronous loop blocks only its own process, so the
// extension host keeps answering commands meanwhile; that call fails by name, and the next run gets a new host.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS } from '../../extension/constants.js';
import type { BindingsHostStatus } from '../../runtime/index.js';
import {
  cellById,
  finished,
  openNotebook,
  resultOf,
  runCells,
  textOf,
  waitFor,
  workspaceUri,
  withExtension,
} from './support/notebooks.js';

suite('bindings host', () => {
  withExtension();

  test('another command answers while a handler loops; the looping call fails by name and the host is replaced', async () => {
    const editor = await openNotebook('fixtures', 'spin.ptcnb');
    const doc = editor.notebook;
    const marker = workspaceUri('fixtures', 'spinning.marker').fsPath;
    rmSync(marker, { force: true });
    const spin = cellById(doc, 'spin');
    const since = Date.now() - 1;
    const running = vscode.commands.executeCommand('notebook.cell.execute', {
      ranges: [{ start: spin.index, end: spin.index + 1 }],
      document: doc.uri,
    });
    await waitFor('the handler to start its loop', () => existsSync(marker), 60_000);

    // the handler is looping now: this extension host still answers (this very test runs in it), and so do commands
    const status = await vscode.commands.executeCommand<BindingsHostStatus | undefined>(
      COMMANDS.bindingsStatus,
      doc.uri,
    );
    assert.ok(status !== undefined && status.module.endsWith('spin.bindings.mjs'), `status: ${JSON.stringify(status)}`);
    const mode = await vscode.commands.executeCommand<string | undefined>(COMMANDS.switchMode, doc.uri, 'mock');
    assert.equal(mode, 'mock');
    assert.equal(finished(spin, since), false, 'the commands answered while the cell was still running');

    await running;
    await waitFor('the looping cell to finish', () => finished(spin, since), 60_000);
    assert.equal(resultOf(spin).value, 'bindings host stopped responding while tools.spin was running', textOf(spin));
    const crashed = await vscode.commands.executeCommand<BindingsHostStatus | undefined>(
      COMMANDS.bindingsStatus,
      doc.uri,
    );
    assert.equal(crashed?.state, 'crashed');

    // the next run gets a fresh host process
    const pid = cellById(doc, 'pid');
    await runCells([pid]);
    assert.equal(typeof resultOf(pid).value, 'number', textOf(pid));
    assert.notEqual(String(resultOf(pid).value), (await import('node:fs')).readFileSync(marker, 'utf8'));
    assert.equal(
      (await vscode.commands.executeCommand<BindingsHostStatus | undefined>(COMMANDS.bindingsStatus, doc.uri))?.state,
      'ready',
    );

    // Restart Bindings replaces it again
    const first = resultOf(pid).value;
    assert.equal(await vscode.commands.executeCommand<boolean>(COMMANDS.restartBindings, doc.uri), true);
    await runCells([pid]);
    assert.notEqual(resultOf(pid).value, first, 'a restarted host is a new process');
  });

  test('a TypeScript bindings module (relative .ts import, npm package, type-only import) loads through the VSIX', async () => {
    const editor = await openNotebook('fixtures', 'typed.ptcnb');
    const cell = cellById(editor.notebook, 'scale');
    await runCells([cell]);
    assert.equal(resultOf(cell).value, 42, textOf(cell));
    const status = await vscode.commands.executeCommand<BindingsHostStatus | undefined>(
      COMMANDS.bindingsStatus,
      editor.notebook.uri,
    );
    assert.equal(status?.state, 'ready', JSON.stringify(status));
  });
});
