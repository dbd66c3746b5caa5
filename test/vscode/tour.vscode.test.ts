// The bundled examples in a real VS Code: every cell of examples/tour.ptcnb and examples/mcp/weather.ptcnb runs
// through the extension's controller and ends as the tour says, with the output mime types the renderer needs.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import expected from '../../examples/expected-outcomes.json' with { type: 'json' };
import { COMMANDS, RESULT_MIME } from '../../extension/constants.js';
import {
  cellById,
  codeCells,
  ERROR_MIME,
  mimesOf,
  openNotebook,
  resultOf,
  runAll,
  runCells,
  textOf,
  withExtension,
  workspaceUri,
} from './support/notebooks.js';

// cell id → 'ok' or the failure kind each example cell demonstrates (one file shared with the demo and unit tests)
const EXPECTED = expected as unknown as Record<string, Record<string, string>>;
const TOUR = EXPECTED['tour.ptcnb']!;
const WEATHER = EXPECTED['mcp/weather.ptcnb']!;

function checkCell(cell: vscode.NotebookCell, want: string): void {
  const label = `cell ${cell.index + 1} (${String(cell.metadata.id)})`;
  const result = resultOf(cell);
  const got = result.error?.kind ?? 'ok';
  assert.equal(
    got,
    want,
    `${label} ended ${got}: ${result.error?.message ?? ''}\ncell metadata ${JSON.stringify(cell.metadata)}\n${textOf(cell)}`,
  );
  assert.equal(cell.executionSummary?.success, want === 'ok', `${label}: ✓/✗ does not match its result`);
  // one output: the rich payload first (the renderer's mime), the error view for failures, text/plain last
  const mimes = mimesOf(cell);
  assert.equal(mimes.length, 1, `${label}: expected one output, got ${JSON.stringify(mimes)}`);
  const expected = want === 'ok' ? [RESULT_MIME, 'text/plain'] : [RESULT_MIME, ERROR_MIME, 'text/plain'];
  assert.deepEqual(mimes[0], expected, `${label}: output mime types`);
  assert.equal(result.language, cell.document.languageId);
}

suite('examples in VS Code', () => {
  withExtension();

  test('examples/tour.ptcnb: Run All ends every cell as the tour promises', async () => {
    const editor = await openNotebook('examples', 'tour.ptcnb');
    const cassetteFile = workspaceUri('examples', '.ptc', 'cassettes', 'tour', 'tour-host.json').fsPath;
    const committedCassette = readFileSync(cassetteFile, 'utf8');
    const committedNotebook = readFileSync(editor.notebook.uri.fsPath, 'utf8');
    const ids = codeCells(editor.notebook).map((c) => String(c.metadata.id));
    assert.deepEqual(ids, Object.keys(TOUR), 'the tour cells this suite knows');
    await runAll(editor);
    for (const [id, want] of Object.entries(TOUR)) checkCell(cellById(editor.notebook, id), want);

    const doc = editor.notebook;
    const mock = resultOf(cellById(doc, 'ts-mock'));
    assert.equal(mock.mode, 'mock');
    assert.deepEqual(mock.logs.slice(-1), ['found 3 of 4 cities']);
    assert.equal((mock.value as { largest: string }).largest, 'Berlin');
    assert.equal(mock.calls.length, 4);
    assert.equal(resultOf(cellById(doc, 'py-mock')).language, 'python');
    assert.equal((resultOf(cellById(doc, 'py-mock')).value as { biggest: string }).biggest, 'Berlin');

    const live = resultOf(cellById(doc, 'live-host'));
    assert.equal(live.mode, 'live');
    assert.equal((live.value as { machine: { platform: string } }).machine.platform, process.platform);

    const thrown = resultOf(cellById(doc, 'fail-exception'));
    assert.match(thrown.error!.message, /ToolCallError: no such city: Atlantis/);
    assert.equal(thrown.error!.location?.line, 3);
    assert.match(resultOf(cellById(doc, 'fail-exception-py')).error!.message, /KeyError: 'mayor'/);
    const timedOut = resultOf(cellById(doc, 'fail-timeout'));
    assert.match(timedOut.error!.message, /1500/);
    assert.deepEqual(
      timedOut.logs,
      ['polling for a result that never arrives…'],
      'a timed-out run keeps what it printed',
    );
    const limited = resultOf(cellById(doc, 'fail-output-limit'));
    assert.ok(
      limited.logs.length > 0 && limited.logs.length < 400,
      `output-limit keeps a prefix (${limited.logs.length} lines)`,
    );
    assert.equal(limited.value, undefined);

    const recorded = resultOf(cellById(doc, 'record-host'));
    const replayed = resultOf(cellById(doc, 'replay-host'));
    assert.equal(recorded.mode, 'live');
    assert.equal(replayed.mode, 'replay');
    const answers = (JSON.parse(committedCassette) as { calls: { value: unknown }[] }).calls.map((c) => c.value);
    assert.equal(
      (replayed.value as { id: string }).id,
      answers[0],
      'the replay returns what the committed cassette holds',
    );
    assert.ok(
      replayed.calls.length === 3 && replayed.calls.every((c) => c.replayed === true),
      'every replayed call is marked',
    );
    assert.equal(replayed.replay?.diverged.length, 0);

    // issue 29.9: Run All rewrote nothing; saving keeps the outputs out of the file (its own saveOutputs: false)
    assert.equal(readFileSync(cassetteFile, 'utf8'), committedCassette, 'Run All left the committed cassette alone');
    assert.ok(await doc.save(), 'the tour saves');
    assert.equal(
      readFileSync(doc.uri.fsPath, 'utf8'),
      committedNotebook,
      'saving after Run All leaves the file byte for byte',
    );

    // recording is what the person asks for: Record on the first cell, then the replay repeats that run exactly
    const record = cellById(doc, 'record-host');
    editor.selections = [new vscode.NotebookRange(record.index, record.index + 1)];
    const outcome = await vscode.commands.executeCommand<{ ok: boolean; message?: string }>(COMMANDS.recordCell);
    assert.equal(outcome?.ok, true, outcome?.message);
    assert.notEqual(readFileSync(cassetteFile, 'utf8'), committedCassette, 'Record wrote the cassette');
    await runCells([cellById(doc, 'replay-host')]);
    assert.deepEqual(
      resultOf(cellById(doc, 'replay-host')).value,
      resultOf(record).value,
      'the replay returns exactly what was recorded',
    );
    writeFileSync(cassetteFile, committedCassette);
  });

  test('examples/mcp/weather.ptcnb: live calls reach the local MCP server', async () => {
    const editor = await openNotebook('examples', 'mcp', 'weather.ptcnb');
    await runAll(editor);
    const doc = editor.notebook;
    assert.deepEqual(
      codeCells(doc).map((c) => String(c.metadata.id)),
      Object.keys(WEATHER),
    );
    for (const [id, want] of Object.entries(WEATHER)) checkCell(cellById(doc, id), want);
    const ranking = resultOf(cellById(doc, 'mcp-ts'));
    assert.equal(ranking.calls.filter((c) => c.name === 'forecast').length, 5, 'one forecast per station');
    assert.equal((ranking.value as { warmest: { city: string } }).warmest.city, 'Madrid');
    assert.match(
      resultOf(cellById(doc, 'mcp-error')).error!.message,
      /WeatherError: no weather station for "Atlantis"/,
    );
  });
});
