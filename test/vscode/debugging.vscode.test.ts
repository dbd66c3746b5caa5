// Pausing binding calls in a real VS Code (issue 32): a breakpoint on a binding pauses the run and the cell's choices
// decide how the call goes on (an edited answer the program uses, a throw its catch sees, a step to the next call,
// Stop), and a binding whose approval is `ask` waits for a person who may approve, edit its arguments or deny it.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../extension/constants.js';
import { untranslated } from '../../extension/l10n.js';
import type { RunResult } from '../../runtime/index.js';
import { diffRuns } from '../../webview/shared/index.js';
import {
  cellById,
  finished,
  openNotebook,
  resultOf,
  runCells,
  textOf,
  waitFor,
  withExtension,
  workspaceUri,
} from './support/notebooks.js';

type CommandOutcome = { ok: true; message?: string } | { ok: false; message: string };
interface Paused {
  key: number;
  id: number;
  global: string;
  name: string;
  args: unknown;
  reason: string;
  problem?: string;
}

const NOTEBOOK = ['fixtures', 'debug.ptcnb'] as const;
// a cold start of the first run of a language (process, bindings host) on a loaded machine
const RUN_MS = 120_000;

function start(cell: vscode.NotebookCell): number {
  const since = Date.now() - 1;
  void vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: cell.index, end: cell.index + 1 }],
    document: cell.notebook.uri,
  });
  return since;
}

function pausedCall(cell: vscode.NotebookCell): Thenable<Paused | undefined> {
  return vscode.commands.executeCommand<Paused | undefined>(COMMANDS.pausedCall, cell);
}

// Waits for the cell's paused call that `ready` accepts (the next pause, or the one that carries a problem).
function pausedAt(
  cell: vscode.NotebookCell,
  what: string,
  ready: (paused: Paused) => boolean = () => true,
): Promise<Paused> {
  return waitFor(
    what,
    async () => {
      const paused = await pausedCall(cell);
      return paused !== undefined && ready(paused) ? paused : undefined;
    },
    RUN_MS,
  );
}

// `target`: a cell, or `{ cell, waiting }` naming one wait
async function decide(command: string, target: unknown, value?: unknown): Promise<void> {
  const outcome = await vscode.commands.executeCommand<CommandOutcome>(command, target, value);
  assert.equal(outcome.ok, true, `${command}: ${outcome.ok ? '' : outcome.message}`);
}

async function ended(cell: vscode.NotebookCell, since: number): Promise<void> {
  await waitFor(`cell ${cell.index + 1} to finish`, () => finished(cell, since), RUN_MS);
}

async function breakOn(target: vscode.NotebookCell, scope: 'cell' | 'notebook', breakpoints: unknown): Promise<void> {
  await decide(COMMANDS.breakOnCalls, target, { scope, breakpoints });
}

suite('call breakpoints and approvals', () => {
  withExtension();

  for (const id of ['answer', 'answer-py']) {
    test(`break on a binding, answer with an edited value: the program uses it (${id})`, async () => {
      const editor = await openNotebook(...NOTEBOOK);
      const cell = cellById(editor.notebook, id);
      await breakOn(cell, 'cell', { bindings: ['tools.search'] });
      try {
        const since = start(cell);
        const paused = await pausedAt(cell, 'the call to tools.search to pause');
        assert.deepEqual(
          { id: paused.id, global: paused.global, name: paused.name, args: paused.args, reason: paused.reason },
          { id: 1, global: 'tools', name: 'search', args: { q: 'cats' }, reason: 'breakpoint' },
        );
        // the cell says what waits, with its arguments
        await waitFor(
          'the paused call in the cell',
          () => /paused at call 1: tools\.search\(\{"q":"cats"\}\)/.test(textOf(cell)),
          RUN_MS,
        );

        // switching editors away and back: still paused
        const other = await vscode.workspace.openTextDocument({ content: 'elsewhere' });
        await vscode.window.showTextDocument(other);
        await vscode.window.showNotebookDocument(editor.notebook);
        assert.equal((await pausedCall(cell))?.id, 1, 'the call still waits after switching editors');

        // an answer that breaks the output schema is refused, and the call is asked about again saying why
        await decide(COMMANDS.answerCall, cell, { hits: 'many' });
        const again = await pausedAt(cell, 'the refused answer to be asked again', (p) => p.problem !== undefined);
        assert.match(again.problem ?? '', /output schema of tools\.search/);

        await decide(COMMANDS.answerCall, cell, { hits: 21 });
        await ended(cell, since);
        assert.equal(cell.executionSummary?.success, true, textOf(cell));
        assert.deepEqual(resultOf(cell).value, { hits: 21, doubled: 42 });
        const call = resultOf(cell).calls[0] as { pause?: { reason: string; decision: string; by: string } };
        assert.deepEqual(
          call.pause && { reason: call.pause.reason, decision: call.pause.decision, by: call.pause.by },
          { reason: 'breakpoint', decision: 'answer', by: 'user' },
        );
        assert.equal(await pausedCall(cell), undefined, 'nothing waits once the run is over');
      } finally {
        await breakOn(cell, 'cell', null);
      }
    });
  }

  test("throw at a notebook-wide breakpoint: the program's catch runs with the message", async () => {
    const editor = await openNotebook(...NOTEBOOK);
    const cell = cellById(editor.notebook, 'throw');
    await breakOn(cell, 'notebook', { every: true });
    try {
      const since = start(cell);
      await pausedAt(cell, 'the call to pause');
      await decide(COMMANDS.throwCall, cell, 'the index is offline');
      await ended(cell, since);
      assert.match(String(resultOf(cell).value), /^caught .*the index is offline/);
    } finally {
      await breakOn(cell, 'notebook', null);
    }
  });

  test('a condition on an argument pauses its call only; Step pauses at the next call; Continue lets the handler answer', async () => {
    const editor = await openNotebook(...NOTEBOOK);
    const cell = cellById(editor.notebook, 'step');
    await breakOn(cell, 'cell', { conditions: [{ binding: 'tools.search', path: '$.q', equals: 'first' }] });
    try {
      const since = start(cell);
      const first = await pausedAt(cell, 'the first call to pause');
      assert.deepEqual(first.args, { q: 'first' });
      await decide(COMMANDS.stepCall, cell);
      const second = await pausedAt(cell, 'the step to pause at the second call', (p) => p.id === 2);
      assert.deepEqual(second.args, { q: 'second' });
      await decide(COMMANDS.continueCall, cell);
      await ended(cell, since);
      assert.deepEqual(resultOf(cell).value, [5, 6]);
    } finally {
      await breakOn(cell, 'cell', null);
    }
  });

  test('Stop ends a paused run with neither ✓ nor ✗ and nothing left waiting', async () => {
    const editor = await openNotebook(...NOTEBOOK);
    const cell = cellById(editor.notebook, 'answer');
    await breakOn(cell, 'cell', { every: true });
    try {
      const since = start(cell);
      await pausedAt(cell, 'the call to pause');
      const stopped = await vscode.commands.executeCommand<CommandOutcome & { stopped?: number }>(
        COMMANDS.stopCells,
        cell,
      );
      assert.equal(stopped.ok && stopped.stopped, 1);
      await ended(cell, since);
      assert.equal(cell.executionSummary?.success, undefined, `a stopped cell has no mark: ${textOf(cell)}`);
      assert.equal(await pausedCall(cell), undefined);
    } finally {
      await breakOn(cell, 'cell', null);
    }
  });

  for (const id of ['approve', 'approve-py']) {
    test(`approval denied: the program sees the error (${id})`, async () => {
      const editor = await openNotebook(...NOTEBOOK);
      const cell = cellById(editor.notebook, id);
      const since = start(cell);
      const paused = await pausedAt(cell, 'mail.send to wait for approval');
      assert.equal(paused.reason, 'approval');
      await decide(COMMANDS.denyCall, cell);
      await ended(cell, since);
      assert.match(String(resultOf(cell).value), /^refused: .*mail\.send was denied by the user/);
    });
  }

  test("a decision for a wait that has ended decides nothing: a later run's call keeps waiting", async () => {
    const editor = await openNotebook(...NOTEBOOK);
    const cell = cellById(editor.notebook, 'approve');
    const first = start(cell);
    const earlier = await pausedAt(cell, "the first run's mail.send to wait for approval");
    await decide(COMMANDS.denyCall, cell);
    await ended(cell, first);
    const second = start(cell);
    const later = await pausedAt(cell, "the second run's mail.send to wait for approval", (p) => p.key !== earlier.key);
    assert.equal(later.id, earlier.id, 'the same call number of the same cell: only the wait differs');
    // the first run's notification clicked now, or its quick pick answered late
    for (const command of [COMMANDS.continueCall, COMMANDS.editCallArguments, COMMANDS.denyCall]) {
      const stale = await vscode.commands.executeCommand<CommandOutcome>(
        command,
        { cell, waiting: earlier.key },
        { to: 'stale@example.com' },
      );
      assert.equal(stale.ok, false, `${command} with the ended wait's key decided something`);
      assert.match(stale.ok ? '' : stale.message, /no longer waits/);
    }
    assert.equal((await pausedCall(cell))?.key, later.key, "the later run's call still waits");
    await decide(COMMANDS.continueCall, { cell, waiting: later.key });
    await ended(cell, second);
    assert.equal(resultOf(cell).value, 'sent to team@example.com');
  });

  test('approval with edited arguments: the handler gets the edit, and a recording keeps the decision', async () => {
    const editor = await openNotebook(...NOTEBOOK);
    const cell = cellById(editor.notebook, 'approve');
    const cassettes = workspaceUri('fixtures', '.ptc', 'cassettes').fsPath;
    const since = Date.now() - 1;
    const recording = vscode.commands.executeCommand(COMMANDS.recordCell, cell);
    await pausedAt(cell, 'mail.send to wait for approval');
    await decide(COMMANDS.editCallArguments, cell, { to: 'reviewed@example.com' });
    await recording;
    await ended(cell, since);
    assert.equal(resultOf(cell).value, 'sent to reviewed@example.com');
    const file = findCassette(cassettes, 'approve');
    assert.ok(file, `a cassette for the cell under ${cassettes}`);
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as {
        calls: { args: unknown; pause?: { reason: string; decision: string; by: string; args?: unknown } }[];
      };
      const call = saved.calls[0];
      assert.deepEqual(call?.args, { to: 'team@example.com' }, "the cassette keeps the program's own arguments");
      assert.deepEqual(call?.pause && { ...call.pause, pausedMs: undefined }, {
        reason: 'approval',
        decision: 'continue',
        by: 'user',
        args: { to: 'reviewed@example.com' },
        pausedMs: undefined,
      });
    } finally {
      rmSync(file, { force: true });
    }
  });
});

suite('run from call N', () => {
  withExtension();

  test('fork from call 2 of a run: call 1 as it was, call 2 edited, the rest by the handlers; the diff diverges at call 2', async () => {
    const editor = await openNotebook(...NOTEBOOK);
    const cell = cellById(editor.notebook, 'fork');
    await runCells([cell], RUN_MS);
    const original = resultOf(cell) as unknown as RunResult;
    assert.deepEqual(original.value, [3, 5, 7]);

    // a call the run does not have is refused without running
    const outOfRange = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.forkFromCall, cell, {
      at: 9,
      value: { hits: 1 },
    });
    assert.equal(outOfRange.ok, false);
    assert.match(outOfRange.ok ? '' : outOfRange.message, /Call 9 is not in this run: it has calls 1 to 3/);

    // an answer that breaks the output schema is refused before anything runs
    const refused = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.forkFromCall, cell, {
      at: 2,
      value: { hits: 'many' },
    });
    assert.match(textOf(cell), /output schema/, `refused: ${JSON.stringify(refused)} ${textOf(cell)}`);
    await runCells([cell], RUN_MS);
    const since = Date.now() - 1;
    const saveTo = path.join(workspaceUri('fixtures', '.ptc', 'cassettes').fsPath, 'fork-from-call-2.json');
    const forked = await vscode.commands.executeCommand<CommandOutcome>(COMMANDS.forkFromCall, cell, {
      at: 2,
      value: { hits: 40 },
      saveTo,
    });
    assert.equal(forked.ok, true, forked.ok ? '' : forked.message);
    await ended(cell, since);
    const fork = resultOf(cell) as unknown as RunResult & { calls: { pause?: { reason: string; by: string } }[] };
    // call 3's argument is built from call 2's answer, so the handler saw the edit
    assert.deepEqual(fork.value, [3, 40, 8]);
    assert.deepEqual(
      fork.calls.map((c) => c.pause && `${c.pause.reason}/${c.pause.by}`),
      ['fork/recording', 'fork/edit', undefined],
    );
    const diff = diffRuns(original, fork, untranslated);
    assert.equal(diff.first?.section, 'calls');
    assert.match(diff.first?.description ?? '', /^call #2 tools\.search/);
    // saved as a new cassette: the fork's answers, each call saying where its answer came from
    try {
      const saved = JSON.parse(readFileSync(saveTo, 'utf8')) as {
        calls: { value?: unknown; pause?: { by: string } }[];
      };
      assert.deepEqual(
        saved.calls.map((c) => [c.value, c.pause?.by]),
        [
          [{ hits: 3 }, 'recording'],
          [{ hits: 40 }, 'edit'],
          [{ hits: 8 }, undefined],
        ],
      );
    } finally {
      rmSync(saveTo, { force: true });
    }
    // the inspector opened on the diff of the two runs
    await waitFor(
      'the run inspector to open',
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputWebview),
      30_000,
    );
  });
});

// The cassette recorded for cell `id` (named by the cell id, wherever the cassette layout puts it).
function findCassette(dir: string, id: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = findCassette(full, id);
      if (found !== undefined) return found;
    } else if (entry.name === `${id}.json`) return full;
  }
  return undefined;
}
