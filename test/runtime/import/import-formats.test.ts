import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { importedMetaOf, verifyImportedNotebook, type CellVerdict } from '../../../runtime/import/index.js';
import { parseCassette } from '../../../runtime/replay/index.js';
import { cellById, EXAMPLES, FIXTURES, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-formats-');

function cassetteOf(dir: string, id: string) {
  const loaded = parseCassette(fs.readFileSync(path.join(dir, '.ptc', 'cassettes', 'imported', `${id}.json`), 'utf8'));
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.cassette;
}

async function verified(out: string): Promise<CellVerdict[]> {
  const outcome = await verifyImportedNotebook(out);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.cells;
}

function verdict(cells: CellVerdict[], id: string): CellVerdict {
  const found = cells.find((c) => c.cellId === id);
  if (found === undefined) throw new Error(`cell ${id} did not run`);
  return found;
}

describe('every example transcript imports and replays as recorded', () => {
  test.each([
    ['anthropic-sales.json', 'anthropic', ['srvtoolu_01Q3RegionRevenue']],
    ['openai-inventory.jsonl', 'openai', ['call_prog_7Hk2']],
    ['deepseek-session.jsonl', 'deepseek', ['call_rc_1', 'call_rc_2']],
    ['ptc-trace-cities.jsonl', 'ptc-trace', ['run-1']],
  ])('%s', async (file, format, ids) => {
    const { out, plan } = await importInto(fresh(), [path.join(EXAMPLES, file)]);
    expect(plan.sources).toEqual([
      { file: path.join(EXAMPLES, file), format, shape: expect.any(String), programs: ids.length },
    ]);
    const cells = await verified(out);
    expect(cells.map((c) => c.cellId)).toEqual(ids);
    for (const cell of cells) {
      expect(cell.setupError).toBeUndefined();
      expect(cell.result?.mode).toBe('replay');
      expect(cell.comparison, `${cell.cellId}: ${JSON.stringify(cell.comparison?.differences)}`).toMatchObject({
        agrees: true,
      });
      expect(cell.result?.replay).toMatchObject({ diverged: [], unused: 0 });
    }
  });
});

describe('Anthropic request/response log', () => {
  test('programs, parallel calls, nested content, a failed program, a bash command and a direct call', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [path.join(FIXTURES, 'anthropic-log.jsonl')]);
    // the five requests repeat the history: every call is recorded once
    const rota = cassetteOf(dir, 'srvtoolu_rota');
    expect(rota.calls.map((c) => `${c.global}.${c.name}`)).toEqual([
      'tools.get_rota',
      'tools.get_calendar',
      'tools.get_calendar',
    ]);
    expect(rota.calls[1]).toMatchObject({
      args: { person: 'ana', week: '2025-W48' },
      ok: true,
      value: [{ day: 'Thu', title: 'Conference' }],
    });
    // first seen in a response, so the model is the one that answered
    const rotaMeta = importedMetaOf(cellById(notebook, 'srvtoolu_rota').metadata);
    expect(rotaMeta).toMatchObject({
      format: 'anthropic',
      programId: 'srvtoolu_rota',
      model: 'claude-opus-4-5-20251101',
    });
    expect(rotaMeta?.notes?.join('\n')).toMatch(/call 3 \(get_calendar\): the answer also held image content/);
    // the direct call (caller "direct") belongs to no program
    expect(JSON.stringify(notebook)).not.toContain('lookup_team');
    const bash = cellById(notebook, 'srvtoolu_ls');
    expect(bash.kind).toBe('markdown');
    expect(bash.source).toMatch(/Cannot be reproduced as recorded[\s\S]*a bash command/);
    expect(bash.source).toContain('ls /tmp/reports');
    const cells = await verified(out);
    expect(verdict(cells, 'srvtoolu_rota').comparison?.agrees).toBe(true);
    const post = verdict(cells, 'srvtoolu_post');
    expect(post.result?.error?.kind).toBe('exception');
    expect(post.result?.error?.message).toContain('channel #oncall is archived');
    expect(post.comparison?.agrees).toBe(true);
  });

  test('calls of a program whose text is missing, an unanswered call, and a recorded timeout', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [path.join(FIXTURES, 'anthropic-orphan.json')]);
    const gone = cellById(notebook, 'srvtoolu_gone');
    expect(gone.kind).toBe('markdown');
    expect(importedMetaOf(gone.metadata)?.unreproducible).toEqual(
      expect.arrayContaining([
        expect.stringContaining('not its program text'),
        expect.stringContaining('never answered'),
      ]),
    );
    const slow = cellById(notebook, 'srvtoolu_slow');
    expect(slow.metadata?.limits).toEqual({ timeoutMs: 10_000 });
    expect(cassetteOf(dir, 'srvtoolu_slow').calls).toEqual([]);
    const cells = await verified(out);
    expect(verdict(cells, 'srvtoolu_slow')).toMatchObject({
      result: { error: { kind: 'timeout' } },
      comparison: { agrees: true },
    });
  });
});

describe('OpenAI Responses items', () => {
  test('parallel calls answered out of order, a custom tool, a direct call, an unanswered program', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [path.join(FIXTURES, 'openai-array.json')]);
    const orders = cassetteOf(dir, 'call_prog_orders');
    expect(orders.calls.map((c) => [c.name, c.args])).toEqual([
      ['lookup_order', { id: 'A-100' }],
      ['lookup_order', { id: 'A-101' }],
      ['lookup_order', { id: 'A-102' }],
      ['run_sql', 'SELECT carrier, COUNT(*) AS n FROM shipments WHERE delayed GROUP BY carrier'],
    ]);
    // the answer given as nested input_text content
    expect(orders.calls[0]).toMatchObject({ ok: true, value: { id: 'A-100', status: 'shipped' } });
    expect(JSON.stringify(orders)).not.toContain('Z-1');
    const refund = cellById(notebook, 'call_prog_refund');
    expect(refund.kind).toBe('code');
    expect(importedMetaOf(refund.metadata)?.then).toBeUndefined();
    expect(refund.metadata?.limits).toEqual({ timeoutMs: 10_000 });
    expect(cassetteOf(dir, 'call_prog_refund').calls[0]).toMatchObject({
      name: 'issue_refund',
      ok: false,
      pending: true,
    });
    const cells = await verified(out);
    expect(verdict(cells, 'call_prog_orders').comparison?.agrees).toBe(true);
    const unanswered = verdict(cells, 'call_prog_refund');
    expect(unanswered.comparison).toBeUndefined();
    expect(unanswered.marked).toBe(true);
    expect(unanswered.result?.error?.kind).toBe('timeout');
  });
});

describe('deepseek-harness session log', () => {
  test('legacy event names, a failed run, a numeric call id, a guessed language, a run_code without code', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [path.join(FIXTURES, 'deepseek-legacy.jsonl')]);
    expect(cassetteOf(dir, 'call_9').calls).toEqual([
      {
        global: 'tools',
        name: 'fetch_url',
        args: { url: 'https://status.example/api' },
        ok: true,
        value: '<html>maintenance</html>',
        durationMs: 10,
      },
    ]);
    const python = cellById(notebook, '42');
    expect(python).toMatchObject({ kind: 'code', language: 'python' });
    expect(importedMetaOf(python.metadata)).toMatchObject({ languageGuessed: true, model: 'deepseek-reasoner' });
    expect(cellById(notebook, 'call_empty').kind).toBe('markdown');
    expect(notebook.cells.some((c) => c.metadata?.id === 'call_other')).toBe(false);
    const stub = fs.readFileSync(path.join(dir, 'imported.bindings.mjs'), 'utf8');
    expect(stub).toContain('"name": "ToolCallError"');
    const cells = await verified(out);
    expect(verdict(cells, 'call_9')).toMatchObject({
      result: { error: { kind: 'exception' }, logs: ['got 24 bytes'] },
      comparison: { agrees: true },
    });
    expect(verdict(cells, '42')).toMatchObject({ result: { value: 91 }, comparison: { agrees: true } });
  });

  test('--language decides for every program of a log', async () => {
    const { notebook } = await importInto(fresh(), [path.join(FIXTURES, 'deepseek-legacy.jsonl')], {
      language: 'typescript',
    });
    expect(cellById(notebook, '42')).toMatchObject({ language: 'typescript' });
    expect(importedMetaOf(cellById(notebook, '42').metadata)?.notes?.join(' ') ?? '').not.toContain('looks like');
  });
});

describe('PTC trace', () => {
  test('declared namespaces and error classes, two programs, a pending call and a timeout', async () => {
    const { dir, out, notebook } = await importInto(fresh(), [path.join(FIXTURES, 'ptc-trace-multi.jsonl')]);
    const stub = fs.readFileSync(path.join(dir, 'imported.bindings.mjs'), 'utf8');
    expect(stub).toMatch(/"kb": \{\s+"errorClass": \{\s+"name": "KbError"/);
    expect(stub).toContain('"notify"');
    expect(cellById(notebook, 'p1').source).toBe(
      "const hits = await kb.search({ q: 'vpn setup' });\nconsole.log(`${hits.length} hits`);\nconst article = await kb.fetch({ id: hits[0].id });\nawait notify.send({ to: 'dana', text: article.title });\nreturn article.title;",
    );
    expect(cellById(notebook, 'p1').metadata).toMatchObject({
      imported: { model: 'fixture-model-1', timestamps: { started: '2025-11-24T12:00:00.000Z' } },
    });
    const cells = await verified(out);
    expect(verdict(cells, 'p1')).toMatchObject({ result: { value: 'VPN setup (2025)' }, comparison: { agrees: true } });
    expect(verdict(cells, 'p2')).toMatchObject({
      result: { error: { kind: 'timeout' } },
      comparison: { agrees: true },
    });
  });
});

describe('two transcripts into one notebook', () => {
  test('cells from both, in order, under a heading per file', async () => {
    const { notebook, plan } = await importInto(fresh(), [
      path.join(EXAMPLES, 'anthropic-sales.json'),
      path.join(EXAMPLES, 'ptc-trace-cities.jsonl'),
    ]);
    expect(plan.cells.map((c) => c.id)).toEqual(['srvtoolu_01Q3RegionRevenue', 'run-1']);
    expect(
      notebook.cells
        .filter((c) => c.kind === 'markdown' && c.source.startsWith('## '))
        .map((c) => c.source.split('\n')[0]),
    ).toEqual(['## anthropic-sales.json', '## ptc-trace-cities.jsonl']);
  });
});
