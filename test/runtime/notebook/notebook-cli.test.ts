import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { serializeNotebook } from '../../../runtime/notebook/serialize.js';
import { RunResultSchema } from '../../../runtime/protocol/run-result.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/cli.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-notebook-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

fs.writeFileSync(
  path.join(dir, 'nb.bindings.mjs'),
  `export default { tools: { functions: {
    add: { mock: async ({ a, b }) => a + b, live: async ({ a, b }) => a + b + 1000 },
  } } };\n`,
);
const notebook = path.join(dir, 'nb.ptcnb');
fs.writeFileSync(
  notebook,
  serializeNotebook({
    version: 1,
    metadata: { bindings: './nb.bindings.mjs', mode: 'mock' },
    cells: [
      { kind: 'markdown', source: '# adds' },
      {
        kind: 'code',
        language: 'typescript',
        source: "console.log('adding');\nreturn await tools.add({ a: 1, b: 2 });",
        metadata: { id: 'add' },
      },
      { kind: 'code', language: 'typescript', source: "throw new Error('cell two fails');", metadata: { id: 'fails' } },
    ],
  }),
);

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function ptc(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, 'notebook', ...args],
      { cwd: dir, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface JsonCell {
  index: number;
  language: string;
  cellId?: string;
  plan: string;
  result?: unknown;
  setupError?: { stage: string; message: string };
  cassette?: { ok: boolean; calls?: number };
}

function cellsOf(run: CliRun): JsonCell[] {
  return (JSON.parse(run.stdout) as { cells: JsonCell[] }).cells;
}

// longer than ptc()'s own 120 s kill: a hung command then fails with its output instead of a bare test timeout
describe('ptc notebook', { timeout: 180_000 }, () => {
  test('--json runs every code cell in order and prints one RunResult per cell; a failing cell makes the exit code 1', async () => {
    const run = await ptc(notebook, '--json');
    expect(run.code).toBe(1);
    const cells = cellsOf(run);
    expect(cells.map((c) => [c.index, c.language, c.cellId, c.plan])).toEqual([
      [1, 'typescript', 'add', 'mock'],
      [2, 'typescript', 'fails', 'mock'],
    ]);
    const [first, second] = cells.map((c) => RunResultSchema.parse(c.result));
    expect(first).toMatchObject({ value: 3, logs: ['adding'], mode: 'mock' });
    expect(second?.error?.kind).toBe('exception');
    expect(second?.error?.message).toContain('cell two fails');
  });

  test('--mode live switches every cell to the live handlers', async () => {
    const cells = cellsOf(await ptc(notebook, '--json', '--mode', 'live'));
    expect(RunResultSchema.parse(cells[0]?.result)).toMatchObject({ value: 1003, mode: 'live' });
  });

  test('--record DIR writes one cassette per cell and --replay DIR answers from them', async () => {
    const cassettes = path.join(dir, 'cassettes');
    const recorded = cellsOf(await ptc(notebook, '--json', '--mode', 'live', '--record', cassettes));
    expect(recorded[0]).toMatchObject({ plan: 'record', cassette: { ok: true, calls: 1 } });
    expect(fs.existsSync(path.join(cassettes, 'nb', 'add.json'))).toBe(true);
    const replayed = cellsOf(await ptc(notebook, '--json', '--replay', cassettes));
    const result = RunResultSchema.parse(replayed[0]?.result);
    // the live answer comes back although the notebook's own mode is mock
    expect(result).toMatchObject({ value: 1003, mode: 'replay', replay: { matched: 1, diverged: [], unused: 0 } });
  });

  test('a replay that leaves recorded calls unused warns on stderr, outside the cell results', async () => {
    const cassettes = path.join(dir, 'cassettes-warn');
    await ptc(notebook, '--json', '--record', cassettes);
    // the same notebook, changed (another folder, the same name: its cassettes are the ones recorded)
    const changed = path.join(dir, 'changed', 'nb.ptcnb');
    fs.mkdirSync(path.dirname(changed), { recursive: true });
    fs.writeFileSync(
      changed,
      fs
        .readFileSync(notebook, 'utf8')
        .replace("console.log('adding');\\nreturn await tools.add({ a: 1, b: 2 });", 'return 0;')
        .replace('./nb.bindings.mjs', '../nb.bindings.mjs'),
    );
    const run = await ptc(changed, '--json', '--replay', cassettes);
    expect(cellsOf(run)[0]).toMatchObject({ cellId: 'add', plan: 'replay' });
    expect(run.stderr).toMatch(
      /ptc notebook: cell 2: 1 recorded call\(s\) in .*add\.json were not used by this replay/,
    );
  });

  test('replaying a cell of an MCP-backed notebook does not need the server (as ptc run --replay does not)', async () => {
    const server = path.resolve('test/fixtures/mcp/server.mjs');
    const moduleFile = path.join(dir, 'mcp.bindings.mjs');
    const module = (command: string): string =>
      `export default { fx: { mcp: { command: ${JSON.stringify(command)}, args: [${JSON.stringify(server)}] } } };\n`;
    fs.writeFileSync(moduleFile, module(process.execPath));
    const mcpNotebook = path.join(dir, 'mcp.ptcnb');
    fs.writeFileSync(
      mcpNotebook,
      serializeNotebook({
        version: 1,
        metadata: { bindings: './mcp.bindings.mjs', mode: 'live' },
        cells: [
          {
            kind: 'code',
            language: 'typescript',
            source: 'return await fx.add({ a: 20, b: 22 });',
            metadata: { id: 'sum' },
          },
        ],
      }),
    );
    const cassettes = path.join(dir, 'cassettes-mcp');
    const recording = await ptc(mcpNotebook, '--json', '--record', cassettes);
    // the fixture server also offers two tools no client can use; leaving them out is all it says
    expect(
      recording.stderr
        .split('\n')
        .filter((line) => line !== '' && !/warning: fx\.(bad-schema|task-only): left out/.test(line)),
    ).toEqual([]);
    expect(cellsOf(recording)[0]).toMatchObject({ cassette: { ok: true, calls: 1 } });
    // the server is gone (not installed, offline): a live run cannot start, a replay still answers from the cassette
    fs.writeFileSync(moduleFile, module(path.join(dir, 'no-such-server')));
    const live = await ptc(mcpNotebook, '--json');
    expect(live.code).not.toBe(0);
    expect(live.stderr).toMatch(/fx: MCP server of fx .* could not start/);
    const replayed = await ptc(mcpNotebook, '--json', '--replay', cassettes);
    expect(replayed.code).toBe(0);
    expect(RunResultSchema.parse(cellsOf(replayed)[0]?.result)).toMatchObject({
      value: { sum: 42 },
      mode: 'replay',
      replay: { matched: 1, diverged: [] },
    });
    expect(replayed.stderr).toMatch(/continuing without the server's tool list/);
  });

  test('prints a readable report without --json', async () => {
    const run = await ptc(notebook);
    expect(run.stdout).toContain('nb.ptcnb · cell 2 (add) · typescript · mock');
    expect(run.stdout).toContain('1 of 2 code cell(s) succeeded');
  });

  test('a corrupt notebook is refused with the line and field of the problem', async () => {
    const bad = path.join(dir, 'bad.ptcnb');
    fs.writeFileSync(bad, '{\n  "version": 1,\n  "cells": [{ "kind": "code", "language": "ruby", "source": "" }]\n}\n');
    const run = await ptc(bad, '--json');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/bad\.ptcnb:3:\d+: cells\[0\]\.language: expected "typescript" or "python"/);
    expect(run.stdout).toBe('');
  });

  test('a broken bindings module is reported once, naming the file', async () => {
    const broken = path.join(dir, 'broken.ptcnb');
    fs.writeFileSync(
      broken,
      serializeNotebook({
        version: 1,
        metadata: { bindings: './nope.bindings.ts' },
        cells: [{ kind: 'code', language: 'typescript', source: 'return 1;' }],
      }),
    );
    const run = await ptc(broken);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/bindings module not found: .*nope\.bindings\.ts/);
  });
});
