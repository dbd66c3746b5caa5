import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadBindingsModule } from '../../../runtime/bindings/module-loader.js';
import { compareWithTranscript, importedMetaOf, verifyImportedNotebook } from '../../../runtime/import/index.js';
import { createRuntime, createSession, type Session } from '../../../runtime/index.js';
import { serializeNotebook } from '../../../runtime/notebook/serialize.js';
import type { CodeCell } from '../../../runtime/notebook/schema.js';
import { cellById, EXAMPLES, importInto, scratch } from './import-helpers.js';

const fresh = scratch('ptc-import-replay-');
const runtime = createRuntime();
const sessions: Session[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.dispose()));
  await runtime.dispose();
});

describe('then vs now', () => {
  test('an edited program no longer matches what the transcript recorded', async () => {
    const { out, notebook } = await importInto(fresh(), [path.join(EXAMPLES, 'anthropic-sales.json')]);
    const cell = cellById(notebook, 'srvtoolu_01Q3RegionRevenue') as CodeCell;
    cell.source = cell.source.replace('print(f"Highest:', 'print(f"Best:');
    fs.writeFileSync(out, serializeNotebook(notebook));
    const verified = await verifyImportedNotebook(out);
    if (!verified.ok) throw new Error(verified.message);
    const comparison = verified.cells[0]?.comparison;
    expect(comparison?.agrees).toBe(false);
    expect(comparison?.differences).toEqual([
      'stdout differs at line 4: "Highest: West, 379040 EUR" then, "Best: West, 379040 EUR" now',
    ]);
  });

  test('a cassette that answers differently shows up as a call difference and an output difference', async () => {
    const { dir, out } = await importInto(fresh(), [path.join(EXAMPLES, 'deepseek-session.jsonl')]);
    const file = path.join(dir, '.ptc', 'cassettes', 'imported', 'call_rc_2.json');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('no such file: src/legacy/old.ts', 'permission denied'),
    );
    const verified = await verifyImportedNotebook(out);
    if (!verified.ok) throw new Error(verified.message);
    const comparison = verified.cells.find((c) => c.cellId === 'call_rc_2')?.comparison;
    expect(comparison?.agrees).toBe(false);
    expect(comparison?.differences[0]).toBe(
      'tools.read_file({"path":"src/legacy/old.ts"}) failed with a different message',
    );
    expect(comparison?.differences[1]).toMatch(/^run_code text differs at line 2/);
    expect(verified.cells.find((c) => c.cellId === 'call_rc_1')?.comparison?.agrees).toBe(true);
  });
});

describe('the generated bindings module', () => {
  test('declares the transcript schemas and serves the recorded answers in mock mode', async () => {
    const { dir, notebook } = await importInto(fresh(), [path.join(EXAMPLES, 'openai-inventory.jsonl')]);
    const stub = path.join(dir, 'imported.bindings.mjs');
    const module = await loadBindingsModule(stub);
    try {
      const fn = module.namespaces.tools?.functions.get_inventory;
      expect(fn?.description).toBe('Stock level of one product.');
      expect(fn?.input).toMatchObject({ required: ['sku'] });
    } finally {
      await module.dispose();
    }
    const cell = cellById(notebook, 'call_prog_7Hk2') as CodeCell;
    const runner = createSession({ runtimeFor: () => runtime, bindingsPath: stub });
    sessions.push(runner);
    const outcome = await runner.run({
      language: 'typescript',
      program: cell.source,
      plan: { mode: 'mock' },
      limits: {},
      cwd: dir,
    });
    if (outcome.kind !== 'result') throw new Error(outcome.message);
    expect(outcome.result.mode).toBe('mock');
    const then = importedMetaOf(cell.metadata)?.then;
    if (then === undefined) throw new Error('no then');
    expect(compareWithTranscript(then, outcome.result)).toEqual({ agrees: true, differences: [] });
    // arguments the transcript never saw fail and say so
    const unknown = await runner.run({
      language: 'typescript',
      program: "return await tools.get_inventory({ sku: 'teapot' });",
      plan: { mode: 'mock' },
      limits: {},
      cwd: dir,
    });
    if (unknown.kind !== 'result') throw new Error(unknown.message);
    expect(unknown.result.error?.message).toContain(
      'tools.get_inventory: the transcript has no answer for these arguments: {"sku":"teapot"}',
    );
  });
});
