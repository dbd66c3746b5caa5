// Task cells in a real VS Code against the fake model server (OpenAI-compatible endpoint from settings, key from the
// editor's secret storage): the program the model writes is inserted below with its metadata and run, the loop
// continues to a final answer, bad output ends with a message on the cell, and the key lands in no file.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { startFakeModelServer, type FakeModelServer } from '../../examples/models/fake-model-server.mjs';
import { COMMANDS, CONFIG_SECTION, TASK_LANGUAGE } from '../../extension/constants.js';
import {
  cellById,
  finished,
  openNotebook,
  resultOf,
  setCellSource,
  textOf,
  waitFor,
  workspaceUri,
  withExtension,
} from './support/notebooks.js';

const KEY = 'sk-vscode-test-key-0123456789abcdef';
const PARIS = "const city = await tools.lookupCity({ name: 'Paris' });\nreturn city.population;\n";
// long enough that, streamed in 12-character pieces 400 ms apart, it takes half a minute to arrive
const SLOW = Array.from({ length: 12 }, (_, i) => `const city${i} = await tools.lookupCity({ name: 'Paris' });`)
  .concat(['return city0.population;'])
  .join('\n');
const SUM =
  "const [p, l] = await Promise.all([tools.lookupCity({ name: 'Paris' }), tools.lookupCity({ name: 'Lyon' })]);\nreturn p.population + l.population;\n";

function markdownOf(cell: vscode.NotebookCell): string {
  return cell.outputs
    .flatMap((o) => o.items)
    .filter((i) => i.mime === 'text/markdown')
    .map((i) => new TextDecoder().decode(i.data))
    .join('\n');
}

async function runTask(cell: vscode.NotebookCell): Promise<void> {
  const since = Date.now() - 1;
  await vscode.commands.executeCommand('notebook.cell.execute', {
    ranges: [{ start: cell.index, end: cell.index + 1 }],
    document: cell.notebook.uri,
  });
  await waitFor(`task cell ${cell.index + 1} to finish`, () => finished(cell, since), 120_000);
}

suite('models in the loop', () => {
  withExtension();
  let server: FakeModelServer;
  const config = () => vscode.workspace.getConfiguration(CONFIG_SECTION);

  suiteSetup(async () => {
    server = await startFakeModelServer({
      script: {
        rules: [
          {
            match: 'What is the population of Paris',
            replies: [{ run_code: { code: PARIS, description: 'Look up Paris' } }],
          },
          {
            match: 'combined population',
            replies: [
              { run_code: { code: SUM, description: 'Add two populations' } },
              { text: 'Together they have **2624900** people.' },
            ],
          },
          { match: 'just answer', replies: [{ text: 'Forty-two.' }] },
          {
            match: 'stream it slowly',
            replies: [
              { text: 'I will look the city up.', chunkDelayMs: 400, run_code: { code: SLOW, description: 'slow' } },
            ],
          },
          { match: 'never stop', replies: [{ run_code: { code: 'return 1;\n', description: 'again' } }] },
          {
            match: 'in Python please',
            replies: [
              {
                run_code: {
                  code: "import asyncio\ncity = await tools.lookupCity({'name': 'Paris'})\nprint(city['population'])\n",
                  description: 'py',
                },
              },
            ],
          },
        ],
      },
    });
    await config().update('model.provider', 'openai', vscode.ConfigurationTarget.Global);
    await config().update('model.baseUrl', `${server.url}/v1`, vscode.ConfigurationTarget.Global);
    await config().update('model.name', 'fake-coder', vscode.ConfigurationTarget.Global);
    assert.equal(await vscode.commands.executeCommand(COMMANDS.setModelKey, { provider: 'openai', key: KEY }), true);
  });
  suiteTeardown(async () => {
    for (const key of ['model.provider', 'model.baseUrl', 'model.name'])
      await config().update(key, undefined, vscode.ConfigurationTarget.Global);
    // the key lives in secret storage, which outlives the suite: a later suite starts without one
    await vscode.commands.executeCommand(COMMANDS.setModelKey, { provider: 'openai', key: '' });
    await server.close();
  });

  test('a task cell sends the model view, inserts the program below with its metadata, runs and records it', async function () {
    this.timeout(300_000);
    const editor = await openNotebook('examples', 'models', 'tasks.ptcnb');
    const doc = editor.notebook;
    const picked = await vscode.commands.executeCommand(COMMANDS.pickModel, {
      notebook: doc.uri,
      choice: { kind: 'endpoint' },
    });
    assert.deepEqual(picked, { kind: 'endpoint' });
    const task = cellById(doc, 'paris');
    assert.equal(task.document.languageId, TASK_LANGUAGE);
    await runTask(task);
    assert.equal(task.executionSummary?.success, true, textOf(task));
    const generated = doc.cellAt(task.index + 1);
    assert.equal(generated.document.getText(), PARIS);
    assert.equal(generated.document.languageId, 'typescript');
    assert.equal(generated.metadata.id, 'paris-turn-1');
    const meta = generated.metadata.generated as Record<string, unknown>;
    assert.equal(meta.model, 'openai:fake-coder');
    assert.match(String(meta.promptHash), /^[0-9a-f]{16}$/);
    assert.ok(
      typeof meta.tokensIn === 'number' && meta.tokensIn > 0 && typeof meta.latencyMs === 'number',
      JSON.stringify(meta),
    );
    assert.equal(resultOf(generated).value, 2102650);
    // the request: the run_code tool whose description is the SDK, the task as the user message, the key from secret
    // storage
    const request = server.requests.find((r) => JSON.stringify(r.body.messages).includes('population of Paris'));
    assert.ok(request);
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    // task cells stream the reply, so it shows as it arrives and Stop can close the request
    assert.equal(request.body.stream, true);
    const tools = request.body.tools as { function: { name: string; description: string } }[];
    assert.equal(tools[0]?.function.name, 'run_code');
    assert.match(tools[0]?.function.description ?? '', /lookupCity/);
    // the turn's calls were recorded to the generated cell's own cassette; the loop was saved as a transcript
    assert.ok(existsSync(workspaceUri('examples', 'models', '.ptc', 'cassettes', 'tasks', 'paris-turn-1.json').fsPath));
    const transcript = readFileSync(
      workspaceUri('examples', 'models', '.ptc', 'transcripts', 'paris.jsonl').fsPath,
      'utf8',
    );
    assert.match(transcript, /"type":"program","id":"turn-1"/);
    assert.ok(!transcript.includes(KEY));
  });

  test('with turns left the loop continues to a final answer, which becomes a markdown cell; the saved file has no key', async function () {
    this.timeout(300_000);
    const editor = await openNotebook('examples', 'models', 'tasks.ptcnb');
    const doc = editor.notebook;
    const task = cellById(doc, 'paris-lyon');
    await runTask(task);
    assert.equal(task.executionSummary?.success, true, textOf(task));
    const program = doc.cellAt(task.index + 1);
    assert.equal(resultOf(program).value, 2624900);
    const answer = doc.cellAt(task.index + 2);
    assert.equal(answer.kind, vscode.NotebookCellKind.Markup);
    assert.equal(answer.document.getText(), 'Together they have **2624900** people.');
    // the result went back to the model as the text it would read
    const second = server.requests
      .filter((r) => JSON.stringify(r.body.messages).includes('combined population'))
      .at(-1);
    assert.deepEqual((second?.body.messages as { role: string; content: string }[]).at(-1), {
      role: 'tool',
      tool_call_id: (second?.body.messages as { tool_calls?: { id: string }[] }[]).at(-2)?.tool_calls?.[0]?.id,
      content: '2624900',
    });
    await doc.save();
    const saved = readFileSync(doc.uri.fsPath, 'utf8');
    assert.match(saved, /"kind": "task"/);
    assert.ok(!saved.includes(KEY));
  });

  test('a program in the wrong language ends with a clear message on the task cell and inserts nothing', async function () {
    this.timeout(400_000);
    const editor = await openNotebook('examples', 'models', 'tasks.ptcnb');
    const doc = editor.notebook;
    const cell = await vscode.commands.executeCommand<vscode.NotebookCell | undefined>(COMMANDS.newTaskCell, doc.uri);
    assert.ok(cell);
    assert.equal(cell.document.languageId, TASK_LANGUAGE);
    await setCellSource(cell, 'Look up Paris, in Python please.');
    const count = doc.cellCount;
    await runTask(cell);
    assert.equal(cell.executionSummary?.success, false);
    assert.match(textOf(cell), /looks like Python, but run_code runs TypeScript programs/);
    assert.equal(doc.cellCount, count);

    // no program: the answer is kept as markdown, and the cell says what happened
    await setCellSource(cell, 'Do not compute, just answer.');
    await runTask(cell);
    assert.equal(cell.executionSummary?.success, false);
    assert.match(textOf(cell), /answered without writing a program/);
    assert.equal(doc.cellAt(cell.index + 1).document.getText(), 'Forty-two.');

    // an endless loop of turns stops at the cell's limit
    await setCellSource(cell, 'never stop');
    const edit = new vscode.WorkspaceEdit();
    edit.set(doc.uri, [vscode.NotebookEdit.updateCellMetadata(cell.index, { ...cell.metadata, turns: 2 })]);
    assert.ok(await vscode.workspace.applyEdit(edit));
    await runTask(cell);
    assert.equal(cell.executionSummary?.success, false);
    assert.match(textOf(cell), /stopped after 2 turns without a final answer/);
  });

  test('the reply and the program appear in the task cell as they stream in; Stop aborts the request, inserts nothing and ends cancelled', async function () {
    this.timeout(300_000);
    const editor = await openNotebook('examples', 'models', 'tasks.ptcnb');
    const doc = editor.notebook;
    const cell = await vscode.commands.executeCommand<vscode.NotebookCell | undefined>(COMMANDS.newTaskCell, doc.uri);
    assert.ok(cell);
    await setCellSource(cell, 'Look up Paris, but stream it slowly.');
    const count = doc.cellCount;
    const since = Date.now() - 1;
    const range = { ranges: [{ start: cell.index, end: cell.index + 1 }], document: doc.uri };
    // not awaited: VS Code resolves the execute command only when the controller's handler has finished the run, so
    // a test that awaits it looks at the cell after the reply has ended (it then sees only the summary)
    const running = Promise.resolve(vscode.commands.executeCommand('notebook.cell.execute', range));
    // part of the program, as code, before the whole of it has arrived
    const shown = await waitFor(
      'the streamed program in the task cell',
      () => {
        const markdown = markdownOf(cell);
        return markdown.includes('const city1 = await tools.lookupCity') ? markdown : undefined;
      },
      120_000,
    ).catch((error: unknown) => {
      // what the cell and the server had instead, so a failure says where the stream stopped showing
      const last = server.requests.at(-1);
      throw new Error(
        `${String(error)}\noutputs: ${JSON.stringify(cell.outputs.map((o) => [o.metadata, textOf({ outputs: [o] } as unknown as vscode.NotebookCell)]))}\nlast request: stream=${String(last?.body.stream)} aborted=${String(last?.aborted)} task=${JSON.stringify(last?.body.messages).slice(0, 200)}`,
      );
    });
    assert.match(shown, /I will look the city up/);
    assert.match(shown, /```typescript\n/);
    assert.ok(!shown.includes('return city0.population;'), `the whole program arrived before Stop: ${shown}`);
    const request = server.requests.at(-1)!;
    assert.equal(request.body.stream, true);
    // seen while the reply was still arriving, not painted after its end
    assert.notEqual(request.ended, true, 'the partial reply showed only after the server had sent all of it');

    await vscode.commands.executeCommand('notebook.cell.cancelExecution', range);
    await running;
    await waitFor('the task cell to end', () => finished(cell, since), 60_000);
    assert.equal(cell.executionSummary?.success, undefined, 'the cell ends cancelled, neither passed nor failed');
    assert.match(textOf(cell), /Cancelled/);
    assert.equal(doc.cellCount, count, 'nothing was inserted');
    await waitFor('the model request to be closed on the wire', () => request.aborted === true, 30_000);
  });
});
