// `ptc test` in a real VS Code: Accept as Expected stores a run as the cell's expectation (and its answers as the
// cell's cassette), a later run that differs ends ✗ with the first difference in its result, and the Test Explorer
// lists every notebook with its expectation cells (the examples included) and replays them like `ptc test`.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { COMMANDS, RESULT_MIME } from '../../extension/constants.js';
import {
  cellById,
  openNotebook,
  resultOf,
  runCells,
  waitFor,
  workspaceUri,
  withExtension,
} from './support/notebooks.js';

type CommandOutcome = { ok: true; message?: string } | { ok: false; message: string };
interface ExplorerState {
  items: {
    id: string;
    label: string;
    uri: string;
    error?: string;
    children: { id: string; label: string; uri: string; line: number | null }[];
  }[];
  results: Record<string, string>;
}
interface Mismatch {
  field: string;
  path: string;
  expected: string;
  actual: string;
}

const STATE_COMMAND = 'ptcPlayground.testExplorerState';

function expectationOf(cell: vscode.NotebookCell): { ok: boolean; mismatches: Mismatch[] } | undefined {
  const item = cell.outputs.flatMap((o) => o.items).find((i) => i.mime === RESULT_MIME);
  assert.ok(item, `cell ${cell.index + 1} has no result`);
  return (JSON.parse(new TextDecoder().decode(item.data)) as { expectation?: { ok: boolean; mismatches: Mismatch[] } })
    .expectation;
}

suite('tests: Accept as Expected and the Test Explorer', () => {
  withExtension();

  test('Accept as Expected stores the run and its answers; a run that differs is ✗ with the first difference', async () => {
    const editor = await openNotebook('fixtures', 'expect.ptcnb');
    const cell = cellById(editor.notebook, 'dice');
    await runCells([cell]);
    assert.equal(expectationOf(cell), undefined, 'no expectation yet, so no comparison');
    const first = resultOf(cell);

    const accepted = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.acceptExpected, cell);
    assert.ok(accepted.ok, JSON.stringify(accepted));
    const expect = cell.metadata.expect as {
      value: { match: string; is: unknown };
      calls: { is: { call: string; args: unknown }[] };
    };
    assert.deepEqual(expect.value, { match: 'exact', is: first.value });
    assert.deepEqual(expect.calls.is, [
      { call: 'dice.roll', args: { sides: 6 } },
      { call: 'dice.roll', args: { sides: 20 } },
    ]);
    const cassette = workspaceUri('fixtures', '.ptc', 'cassettes', 'expect', 'dice.json').fsPath;
    assert.ok(existsSync(cassette), 'the accepted run left its cassette');
    const recorded = JSON.parse(readFileSync(cassette, 'utf8')) as { calls: { value: unknown }[] };
    assert.deepEqual(
      recorded.calls.map((c) => c.value),
      first.calls.map((c) => c.value),
    );
    // the shown run now meets the expectation: ✓ and a passing comparison
    await waitFor('the accepted output', () => expectationOf(cell)?.ok === true);
    await waitFor('the accepted cell to show ✓', () => cell.executionSummary?.success === true, 10_000);

    // live dice roll again: the value differs from the accepted one, so the cell ends ✗ and says where
    await runCells([cell]);
    const report = expectationOf(cell);
    assert.equal(report?.ok, false);
    assert.equal(cell.executionSummary?.success, false, 'a run that differs from its expectation is ✗');
    assert.equal(report?.mismatches[0]?.field, 'value');
    assert.equal(report?.mismatches[0]?.path, '$.a');
    assert.equal(report?.mismatches[0]?.expected, JSON.stringify((first.value as { a: number }).a));
    await vscode.commands.executeCommand('workbench.action.files.save');
  });

  test('the Test Explorer lists every notebook with its expectation cells and replays them from their cassettes', async () => {
    const editor = await openNotebook('fixtures', 'expect.ptcnb');
    const cell = cellById(editor.notebook, 'dice');
    const state = await vscode.commands.executeCommand<ExplorerState>(STATE_COMMAND);
    const labels = state.items.map((i) => i.label);
    for (const name of ['examples/tour.ptcnb', 'examples/mcp/weather.ptcnb', 'fixtures/expect.ptcnb'])
      assert.ok(labels.includes(name), `${name} in ${labels.join(', ')}`);
    const tour = state.items.find((i) => i.label === 'examples/tour.ptcnb');
    assert.deepEqual(
      tour?.children.map((c) => c.label),
      // named by what the cell says, never by its generated id (issue 29)
      [
        "const names = ['Paris', 'Berlin', 'Madrid', 'Atlantis'];",
        'countries = ["FR", "DE", "ES"]',
        'const [machine, now] = await Promise.all([host.describe(), host.now()]);',
        "const home = await tools.lookupCity({ name: 'Paris' });",
        'city = await tools.lookupCity({"name": "Lyon"})',
        "console.log('polling for a result that never arrives…');",
        'for (let page = 1; page <= 400; page++) {',
        "const city = await tools.lookupCity({ name: 'Hamburg' });",
        'const id = await host.newId();',
        'const id = await host.newId();',
      ],
    );
    // notebooks without expectations are not listed (no clutter); a corrupt one is, saying why
    assert.equal(
      state.items.find((i) => i.label === 'fixtures/modes.ptcnb'),
      undefined,
    );
    assert.match(state.items.find((i) => i.label === 'fixtures/corrupt-field.ptcnb')?.error ?? '', /./);
    // an open notebook's tests point at the cell's own editor, first line: where the gutter icon goes
    const dice = state.items.find((i) => i.label === 'fixtures/expect.ptcnb')?.children[0];
    assert.equal(dice?.uri, cell.document.uri.toString());
    assert.equal(dice?.line, 0);

    await vscode.commands.executeCommand('testing.runAll');
    const done = await waitFor(
      'every test to report',
      async () => {
        const now = await vscode.commands.executeCommand<ExplorerState>(STATE_COMMAND);
        const ids = now.items.flatMap((i) => i.children.map((c) => c.id));
        return ids.every((id) => now.results[id] !== undefined) ? now : undefined;
      },
      240_000,
    );
    const outcomes = Object.fromEntries(
      done.items.flatMap((i) =>
        i.children.map((c) => [`${i.label} ${c.id.split('#').pop() ?? c.label}`, done.results[c.id]]),
      ),
    );
    for (const [name, outcome] of Object.entries(outcomes))
      assert.equal(outcome, 'passed', `${name}: ${JSON.stringify(outcomes)}`);
    assert.equal(Object.keys(outcomes).length, 14, JSON.stringify(outcomes));
  });
});
