// Import Transcript… in a real VS Code: a transcript becomes a notebook that opens, replays every program from its
// cassette, and opens the run inspector on "Then vs now" even before a cell has run.
import * as assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS } from '../../extension/constants.js';
import { cellById, resultOf, runCells, waitFor, workspaceUri, withExtension } from './support/notebooks.js';

type ImportOutcome = { ok: true; message?: string; notebook?: vscode.Uri } | { ok: false; message: string };
type CommandOutcome = { ok: true; message?: string } | { ok: false; message: string };

suite('importing a transcript', () => {
  withExtension();
  const out = workspaceUri('imported', 'session.ptcnb');
  suiteTeardown(() => rmSync(workspaceUri('imported').fsPath, { recursive: true, force: true }));

  test('imports the deepseek-harness example, opens it, and every cell replays what the transcript recorded', async () => {
    const transcript = workspaceUri('examples', 'transcripts', 'deepseek-session.jsonl');
    const outcome = await vscode.commands.executeCommand<ImportOutcome>(COMMANDS.importTranscript, {
      files: [transcript],
      out,
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.message);
    assert.match(outcome.message ?? '', /^Imported 2 program\(s\) from deepseek-session\.jsonl/);
    assert.ok(
      existsSync(workspaceUri('imported', '.ptc', 'cassettes', 'session', 'call_rc_1.json').fsPath),
      'the cassette of the first program',
    );
    assert.ok(existsSync(workspaceUri('imported', 'session.bindings.mjs').fsPath), 'the generated bindings module');
    const editor = await waitFor(
      'the imported notebook to open',
      () =>
        vscode.window.activeNotebookEditor?.notebook.uri.fsPath === out.fsPath && vscode.window.activeNotebookEditor,
    );
    const first = cellById(editor.notebook, 'call_rc_1');
    const second = cellById(editor.notebook, 'call_rc_2');
    assert.equal(second.document.languageId, 'python');
    // an imported cell can be inspected before it ran: the inspector opens on what the transcript recorded
    const inspected = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.openInspector, first);
    assert.ok(inspected.ok, inspected.ok ? '' : inspected.message);
    await runCells([first, second]);
    const one = resultOf(first);
    assert.equal(one.mode, 'replay');
    assert.deepEqual(one.logs, [
      'src/server.ts (18234 bytes): 2 TODO(s)',
      'src/routes.ts (12050 bytes): 0 TODO(s)',
      'src/db.ts (9120 bytes): 1 TODO(s)',
    ]);
    const two = resultOf(second);
    assert.equal(two.mode, 'replay');
    assert.deepEqual(two.logs, ['src/server.ts: 4 lines', 'src/legacy/old.ts: no such file: src/legacy/old.ts']);
    // the run made here goes back out as a PTC trace, which imports again as a notebook that replays the same calls
    const trace = workspaceUri('imported', 'call_rc_1.trace.jsonl');
    const saved = await vscode.commands.executeCommand<ImportOutcome>(COMMANDS.saveRunTrace, first, trace);
    assert.ok(saved.ok, saved.ok ? '' : saved.message);
    assert.ok(existsSync(trace.fsPath), 'the trace file');
    const again = await vscode.commands.executeCommand<ImportOutcome>(COMMANDS.importTranscript, {
      files: [trace],
      out: workspaceUri('imported', 'again', 'again.ptcnb'),
    });
    assert.ok(again.ok, again.ok ? '' : again.message);
    assert.match(again.message ?? '', /^Imported 1 program\(s\) from call_rc_1\.trace\.jsonl/);
    const reopened = await waitFor(
      'the re-imported notebook to open',
      () =>
        vscode.window.activeNotebookEditor?.notebook.uri.fsPath.endsWith('again.ptcnb') === true &&
        vscode.window.activeNotebookEditor,
    );
    const cell = cellById(reopened.notebook, 'call_rc_1');
    await runCells([cell]);
    const replayed = resultOf(cell);
    assert.equal(replayed.mode, 'replay');
    assert.deepEqual(replayed.logs, one.logs);
  });

  test('importing onto an existing notebook writes nothing without force', async () => {
    const transcript = workspaceUri('examples', 'transcripts', 'deepseek-session.jsonl');
    const outcome = await vscode.commands.executeCommand<ImportOutcome>(COMMANDS.importTranscript, {
      files: [transcript],
      out,
    });
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.message, /already exist\(s\); nothing was written/);
  });

  test('a malformed transcript is refused with its file and line', async () => {
    const broken = workspaceUri('fixtures', 'corrupt-truncated.ptcnb');
    const outcome = await vscode.commands.executeCommand<ImportOutcome>(COMMANDS.importTranscript, {
      files: [broken],
      out: workspaceUri('imported', 'broken.ptcnb'),
      format: 'anthropic',
    });
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.message, /corrupt-truncated\.ptcnb:\d+:\d+: invalid JSON/);
    assert.equal(existsSync(workspaceUri('imported', 'broken.ptcnb').fsPath), false);
  });
});
