// Cassettes are keyed by notebook and cell (issue 28.7): `.ptc/cassettes/<notebook>/<cell>.json`, so two notebooks of a
// folder never share one (every `ptc run --trace` imports as `run-1`; `ptc import --force` replaces only its own
// notebook's). Cells of one notebook whose cassettes would be one file — the same id twice, an id equal to another
// cell's positional name — are refused by ptc test and ptc notebook with one line naming every cell, before anything
// runs or is written; a cassette named on purpose with metadata.cassette on both cells stays shared. The folder-wide
// layout before (`.ptc/cassettes/<cell>.json`) is still read, and retired once no notebook reads it: no recording lost.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cassetteOwners, describeCollisions } from '../../../runtime/session/cassette-collisions.js';
import type { NotebookFile } from '../../../runtime/notebook/schema.js';
import { ptc, ptcWith, scratchDir } from './cli-harness.js';

type Meta = Record<string, unknown>;
const code = (metadata: Meta, source = 'return 1;') => ({ kind: 'code', language: 'typescript', source, metadata });
const expecting = (id: string, extra: Meta = {}): Meta => ({
  id,
  expect: { value: { match: 'exact', is: 1 } },
  ...extra,
});
const notebook = (cells: unknown[], metadata: Meta = {}): string =>
  `${JSON.stringify({ version: 1, metadata, cells }, null, 2)}\n`;

// a live handler that answers with what it was asked: each notebook's recording differs
const BINDINGS = `export default {
  tools: { functions: { echo: { mock: async ({ v }) => ({ v, via: 'mock' }), live: async ({ v }) => ({ v, via: 'live' }) } } },
};
`;
const echoing = (id: string, v: string) =>
  code({ id, expect: { value: { match: 'exact' } } }, `return (await tools.echo({ v: '${v}' })).v;`);
const echoNotebook = (cells: unknown[]) => notebook(cells, { bindings: 'tools.bindings.mjs', mode: 'mock' });
const legacyCassette = (v: string) =>
  `${JSON.stringify({ version: 1, calls: [{ global: 'tools', name: 'echo', args: { v }, ok: true, value: { v, via: 'old' }, durationMs: 1 }] }, null, 2)}\n`;

describe('cassette collisions', { timeout: 240_000 }, () => {
  const scratch = scratchDir('ptc-cassette-collisions-');
  const folder = (name: string, files: Record<string, string>): string => {
    const dir = path.join(scratch.dir, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    return dir;
  };
  const recordedArg = (file: string): unknown =>
    (JSON.parse(fs.readFileSync(file, 'utf8')) as { calls: { args: { v: unknown } }[] }).calls[0]?.args.v;

  it('ptc test refuses the same id twice in a notebook, naming both cells, and writes nothing', async () => {
    const dir = folder('twice', {
      'a.ptcnb': notebook([{ kind: 'markdown', source: '# a' }, code(expecting('run-1')), code(expecting('run-1'))]),
    });
    const run = await ptcWith({ cwd: scratch.dir }, 'test', 'twice', '--mode', 'live', '--update');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `ptc test: ${path.join('twice', '.ptc', 'cassettes', 'a', 'run-1.json')} would be the cassette of twice/a.ptcnb cell 2, twice/a.ptcnb cell 3: recording one overwrites what the others replay; give each cell an id of its own (metadata.id), or name a cassette shared on purpose with metadata.cassette\n`,
    );
    expect(run.stdout).toBe('');
    expect(fs.existsSync(path.join(dir, '.ptc'))).toBe(false);
  });

  it('one id in two notebooks of a folder is two cassettes: each records and replays its own', async () => {
    const dir = folder('pair', {
      'tools.bindings.mjs': BINDINGS,
      'first.ptcnb': echoNotebook([echoing('run-1', 'first')]),
      'second.ptcnb': echoNotebook([echoing('run-1', 'second')]),
    });
    const recorded = await ptcWith({ cwd: scratch.dir }, 'test', 'pair', '--mode', 'live', '--update');
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    expect(recordedArg(path.join(dir, '.ptc/cassettes/first/run-1.json'))).toBe('first');
    expect(recordedArg(path.join(dir, '.ptc/cassettes/second/run-1.json'))).toBe('second');
    expect(fs.existsSync(path.join(dir, '.ptc/cassettes/run-1.json'))).toBe(false);
    for (const target of ['pair', 'pair/first.ptcnb']) {
      const offline = await ptcWith({ cwd: scratch.dir }, 'test', target);
      expect(offline.code, offline.stdout + offline.stderr).toBe(0);
    }
  });

  it('ptc notebook refuses a record cell whose cassette another cell replays under its positional name', async () => {
    const dir = folder('positional', {
      'n.ptcnb': notebook([code({ id: 'cell-2', mode: 'record' }), code({ mode: 'replay' })]),
    });
    const run = await ptcWith({ cwd: dir }, 'notebook', 'n.ptcnb');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${path.join('.ptc', 'cassettes', 'n', 'cell-2.json')} would be the cassette of n.ptcnb cell 1, n.ptcnb cell 2`,
    );
    expect(fs.existsSync(path.join(dir, '.ptc'))).toBe(false);
  });

  it('a cassette shared on purpose (metadata.cassette on both cells) runs: one records, the other replays it', async () => {
    const dir = folder('shared', {
      'n.ptcnb': notebook([
        code({ id: 'rec', mode: 'record', cassette: 'host' }),
        code({ id: 'rep', mode: 'replay', cassette: 'host' }),
      ]),
    });
    const run = await ptcWith({ cwd: dir }, 'notebook', 'n.ptcnb');
    expect(run.stderr).not.toContain('would be the cassette');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(fs.existsSync(path.join(dir, '.ptc', 'cassettes', 'n', 'host.json'))).toBe(true);
  });

  it('the old folder-wide layout is read, and each old file is retired only once no notebook reads it', async () => {
    // before: `same` was one file for both notebooks, `solo` only a's
    const dir = folder('old', {
      'tools.bindings.mjs': BINDINGS,
      'a.ptcnb': echoNotebook([echoing('same', 'x'), echoing('solo', 'y')]),
      'b.ptcnb': echoNotebook([echoing('same', 'x')]),
      '.ptc/cassettes/same.json': legacyCassette('x'),
      '.ptc/cassettes/solo.json': legacyCassette('y'),
    });
    const old = (name: string) => path.join(dir, '.ptc/cassettes', `${name}.json`);
    // expectations from the old recordings, offline: both notebooks replay the old files
    const accepted = await ptcWith({ cwd: dir }, 'test', '--update');
    expect(accepted.code, accepted.stdout + accepted.stderr).toBe(0);
    expect(accepted.stdout.trimEnd().split('\n').at(-1)).toBe('3 passed, 0 failed');
    expect(fs.existsSync(path.join(dir, '.ptc/cassettes/a'))).toBe(false);
    // a records its own: `solo` was only a's, so it moves; `same` stays while b still reads it
    const a = await ptcWith({ cwd: dir }, 'test', 'a.ptcnb', '--mode', 'live', '--update');
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(recordedArg(path.join(dir, '.ptc/cassettes/a/same.json'))).toBe('x');
    expect(recordedArg(path.join(dir, '.ptc/cassettes/a/solo.json'))).toBe('y');
    expect(fs.existsSync(old('solo'))).toBe(false);
    expect(fs.readFileSync(old('same'), 'utf8')).toBe(legacyCassette('x'));
    const b = await ptcWith({ cwd: dir }, 'test', 'b.ptcnb');
    expect(b.code, b.stdout + b.stderr).toBe(0);
    // b records its own: nobody reads the old file any more
    expect((await ptcWith({ cwd: dir }, 'test', 'b.ptcnb', '--mode', 'live', '--update')).code).toBe(0);
    expect(recordedArg(path.join(dir, '.ptc/cassettes/b/same.json'))).toBe('x');
    expect(fs.existsSync(old('same'))).toBe(false);
    expect((await ptcWith({ cwd: dir }, 'test')).code).toBe(0);
  });

  it('ptc import into one folder: two notebooks keep their own cassettes, and --force replaces only its own', async () => {
    const transcript = path.resolve('examples/transcripts/anthropic-sales.json');
    const dir = folder('imports', {});
    for (const name of ['one', 'two']) {
      const run = await ptc('import', transcript, '-o', path.join(dir, `${name}.ptcnb`));
      expect(run.code, run.stderr).toBe(0);
    }
    const cassettes = (name: string) => fs.readdirSync(path.join(dir, '.ptc/cassettes', name));
    expect(cassettes('one')).toEqual(cassettes('two'));
    expect(cassettes('one').length).toBeGreaterThan(0);
    const theirs = path.join(dir, '.ptc/cassettes/two', cassettes('two')[0] as string);
    fs.appendFileSync(theirs, '\n');
    const before = fs.readFileSync(theirs, 'utf8');
    const again = await ptc('import', transcript, '-o', path.join(dir, 'one.ptcnb'));
    expect(again.code).toBe(2);
    const forced = await ptc('import', transcript, '-o', path.join(dir, 'one.ptcnb'), '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(theirs, 'utf8')).toBe(before);
  });

  it('only cells that own a cassette count: plain mock cells may repeat an id', () => {
    const file: NotebookFile = JSON.parse(
      notebook([code({ id: 'x' }), code({ id: 'x' }), code(expecting('y'))]),
    ) as NotebookFile;
    const owners = cassetteOwners('/w/n.ptcnb', file);
    expect(owners.map((o) => o.name)).toEqual(['y']);
    expect(describeCollisions(owners, '/w')).toEqual([]);
  });
});
