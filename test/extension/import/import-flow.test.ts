import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { defaultNotebookPath, runImport } from '../../../extension/import/import-flow.js';
import { thenVsNowOf } from '../../../extension/import/then-vs-now.js';
import { importedMetaOf } from '../../../runtime/import/index.js';
import { parseNotebook } from '../../../runtime/notebook/parse.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { parseHostToInspector } from '../../../webview/protocol/inspector-messages.js';
import { transcriptRun } from '../../../webview/shared/transcript-run.js';

const EXAMPLES = path.resolve(import.meta.dirname, '../../../examples/transcripts');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-import-flow-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => fs.mkdtempSync(path.join(root, `c${++n}-`));

describe('Import Transcript… without its dialogs', () => {
  test('imports, then asks before replacing, then replaces when told to', async () => {
    const out = path.join(fresh(), 'sales.ptcnb');
    const files = [path.join(EXAMPLES, 'anthropic-sales.json')];
    const first = await runImport({ files, out });
    expect(first).toMatchObject({
      kind: 'imported',
      notebookPath: out,
      cells: 1,
      marked: 0,
      summary:
        'Imported 1 program(s) from anthropic-sales.json (Anthropic Messages API (programmatic tool calling)): 1 replayable cell(s).',
    });
    const again = await runImport({ files, out });
    expect(again).toMatchObject({ kind: 'exists' });
    expect(again.kind === 'exists' ? again.existing.sort() : []).toEqual(
      [
        out,
        path.join(path.dirname(out), 'sales.bindings.mjs'),
        path.join(path.dirname(out), '.ptc', 'cassettes', 'sales', 'srvtoolu_01Q3RegionRevenue.json'),
      ].sort(),
    );
    expect(await runImport({ files, out, force: true })).toMatchObject({ kind: 'imported' });
  });

  test('an unrecognised file asks for the format; a malformed one names its line; nothing is written either way', async () => {
    const dir = fresh();
    const odd = path.join(dir, 'odd.json');
    fs.writeFileSync(odd, '{"events": []}');
    expect(await runImport({ files: [odd], out: path.join(dir, 'o.ptcnb') })).toMatchObject({ kind: 'unknown-format' });
    const broken = path.join(dir, 'broken.jsonl');
    fs.writeFileSync(broken, '{"type":"ptc-trace","version":1}\n{"type":"program",\n');
    const outcome = await runImport({ files: [broken], out: path.join(dir, 'o.ptcnb'), format: 'ptc-trace' });
    expect(outcome).toMatchObject({ kind: 'bad-transcript', problem: { file: broken, line: 2 } });
    expect(fs.readdirSync(dir).sort()).toEqual(['broken.jsonl', 'odd.json']);
  });

  test('the default notebook sits next to the transcript, named after it', () => {
    expect(defaultNotebookPath('/logs/run-7.jsonl')).toBe(path.join('/logs', 'run-7.ptcnb'));
    expect(defaultNotebookPath('/logs/capture.har')).toBe(path.join('/logs', 'capture.ptcnb'));
  });
});

describe('then vs now for the inspector', () => {
  test('a run of an imported cell becomes a verdict and two texts the inspector page accepts', async () => {
    const out = path.join(fresh(), 'ds.ptcnb');
    expect(await runImport({ files: [path.join(EXAMPLES, 'deepseek-session.jsonl')], out })).toMatchObject({
      kind: 'imported',
    });
    const parsed = parseNotebook(fs.readFileSync(out, 'utf8'));
    if (!parsed.ok) throw new Error('notebook');
    const cell = parsed.notebook.cells.find((c) => c.metadata?.id === 'call_rc_2');
    const then = importedMetaOf(cell?.metadata)?.then;
    if (then === undefined) throw new Error('no then record');
    const sandbox: RunResult['sandbox'] = {
      network: 'denied',
      filesystem: 'denied',
      childProcess: 'denied',
      enforcement: 'full',
      mechanisms: [],
    };
    const now: RunResult = {
      language: 'python',
      logs: ['src/server.ts: 4 lines', 'src/legacy/old.ts: gone'],
      value: null,
      calls: [],
      sandbox,
      durationMs: 5,
    };
    const verdict = thenVsNowOf(then, now);
    expect(verdict).toMatchObject({ agrees: false, label: 'run_code text' });
    expect(verdict.differences).toContain(
      'call 1 of the transcript, tools.read_file({"path":"src/server.ts"}), was not made',
    );
    expect(verdict.thenText).toBe('src/server.ts: 4 lines\nsrc/legacy/old.ts: no such file: src/legacy/old.ts\nnull');
    expect(verdict.nowText).toBe('src/server.ts: 4 lines\nsrc/legacy/old.ts: gone\nnull');
    const shown = transcriptRun({
      id: 't',
      label: 'cell 4 · transcript',
      language: 'python',
      then,
      format: 'deepseek',
      compare: then.compare,
      origin: 'deepseek-session.jsonl line 19',
      marks: [],
    });
    const message = {
      type: 'load',
      runs: [
        shown,
        {
          id: 'r',
          label: 'cell 4 · now',
          source: 'cell',
          payload: { result: now, language: 'python' },
          thenVsNow: verdict,
        },
      ],
      tab: 'then',
    };
    expect(parseHostToInspector(message)).toMatchObject({ ok: true });
    expect(shown.payload.result.calls.map((c) => [c.id, c.name, c.ok])).toEqual([
      [1, 'read_file', true],
      [2, 'read_file', false],
    ]);
  });
});
