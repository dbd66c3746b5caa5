// The bundled examples through `ptc notebook --json` (the extension's own code path, headless): every cell ends as
// examples/expected-outcomes.json says, in a temp copy so recorded cassettes never land in the repo.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import expected from '../../examples/expected-outcomes.json' with { type: 'json' };

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'dist', 'cli.mjs');
const EXPECTED = expected as unknown as Record<string, Record<string, string>>;

interface CellReport {
  index: number;
  cellId?: string;
  language: string;
  plan: string;
  setupError?: { stage: string; message: string };
  result?: {
    value?: unknown;
    logs: string[];
    error?: { kind: string; message: string };
    calls: { name: string; replayed?: boolean }[];
    mode?: string;
  };
  cassette?: { ok: boolean; calls?: number };
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ptc-examples-'));
  // with the committed cassettes (the tour's replay cell reads one), never a local run's transcripts
  await cp(path.join(root, 'examples'), path.join(tmp, 'examples'), {
    recursive: true,
    filter: (source) => path.basename(source) !== 'transcripts' || !source.includes('.ptc'),
  });
  // the MCP example's server resolves @modelcontextprotocol/sdk upwards, as it does in a clone
  await symlink(path.join(root, 'node_modules'), path.join(tmp, 'node_modules'), 'dir');
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function runNotebook(name: string): Promise<CellReport[]> {
  const file = path.join(tmp, 'examples', name);
  // exit 1 is expected: the examples fail some cells on purpose
  const { stdout } = await promisify(execFile)(process.execPath, [cli, 'notebook', file, '--json'], {
    cwd: path.dirname(file),
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { code?: number; stdout?: string; stderr?: string }) => {
    if (error.code !== 1) throw new Error(`ptc notebook ${name} exited ${String(error.code)}: ${error.stderr ?? ''}`);
    return { stdout: error.stdout ?? '' };
  });
  return (JSON.parse(stdout) as { cells: CellReport[] }).cells;
}

const outcome = (cell: CellReport): string =>
  cell.setupError ? `setup error: ${cell.setupError.message}` : (cell.result?.error?.kind ?? 'ok');

describe.concurrent('examples', () => {
  it('every example notebook is covered by expected-outcomes.json and names its cells', async () => {
    for (const name of Object.keys(EXPECTED).filter((k) => k !== 'about')) {
      const notebook = JSON.parse(await readFile(path.join(root, 'examples', name), 'utf8')) as {
        cells: { kind: string; metadata?: { id?: string } }[];
      };
      const ids = notebook.cells.filter((c) => c.kind === 'code').map((c) => c.metadata?.id);
      expect(ids, name).toEqual(Object.keys(EXPECTED[name]!));
    }
  });

  it('tour.ptcnb: each cell ends as promised; the replay repeats the committed recording exactly, and nothing is rewritten', async () => {
    const cassette = path.join(tmp, 'examples', '.ptc', 'cassettes', 'tour', 'tour-host.json');
    const committed = await readFile(cassette, 'utf8');
    const notebookBefore = await readFile(path.join(tmp, 'examples', 'tour.ptcnb'), 'utf8');
    const cells = await runNotebook('tour.ptcnb');
    expect(Object.fromEntries(cells.map((c) => [c.cellId, outcome(c)]))).toEqual(EXPECTED['tour.ptcnb']);
    const byId = new Map(cells.map((c) => [c.cellId, c]));
    expect(byId.get('fail-timeout')?.result?.error?.message).toMatch(/1500/);
    expect(byId.get('fail-output-limit')?.result?.logs.length).toBeGreaterThan(0);
    expect(byId.get('live-host')?.result?.mode).toBe('live');
    const recorded = byId.get('record-host');
    const replayed = byId.get('replay-host');
    // the record cell runs live; a recording is made only when asked for (Record, ptc test --update)
    expect(recorded?.result?.mode).toBe('live');
    expect(recorded?.cassette).toBeUndefined();
    expect(await readFile(cassette, 'utf8')).toBe(committed);
    expect(await readFile(path.join(tmp, 'examples', 'tour.ptcnb'), 'utf8')).toBe(notebookBefore);
    const answers = (JSON.parse(committed) as { calls: { value: unknown }[] }).calls.map((c) => c.value);
    expect(replayed?.result?.mode).toBe('replay');
    expect(replayed?.result?.value).toEqual({
      id: answers[0],
      at: answers[1],
      platform: (answers[2] as { platform: string }).platform,
    });
    expect(replayed?.result?.calls.every((c) => c.replayed === true)).toBe(true);
  });

  it('mcp/weather.ptcnb: live calls are served by the local MCP server, and ptc exits', async () => {
    const cells = await runNotebook('mcp/weather.ptcnb');
    expect(Object.fromEntries(cells.map((c) => [c.cellId, outcome(c)]))).toEqual(EXPECTED['mcp/weather.ptcnb']);
    const ranking = cells.find((c) => c.cellId === 'mcp-ts')?.result;
    expect(ranking?.mode).toBe('live');
    expect(ranking?.calls.map((c) => c.name)).toEqual([
      'stations',
      'forecast',
      'forecast',
      'forecast',
      'forecast',
      'forecast',
    ]);
  });
});
