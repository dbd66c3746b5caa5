// Cassettes never collide silently (issue 28.7): cells whose cassettes would be one file of their folder's
// .ptc/cassettes/ — the same id twice in a notebook, the same id in two notebooks of a folder (every `ptc run --trace`
// imports as `run-1`), an id equal to another cell's positional name — are refused by ptc test and ptc notebook with
// one line per file naming every cell, before anything runs or is written. A cassette named on purpose with
// metadata.cassette (a record cell and the cell that replays it) is not a collision.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cassetteOwners, describeCollisions } from '../../../runtime/session/cassette-collisions.js';
import type { NotebookFile } from '../../../runtime/notebook/schema.js';
import { ptcWith, scratchDir } from './cli-harness.js';

type Meta = Record<string, unknown>;
const code = (metadata: Meta, source = 'return 1;') => ({ kind: 'code', language: 'typescript', source, metadata });
const expecting = (id: string, extra: Meta = {}): Meta => ({
  id,
  expect: { value: { match: 'exact', is: 1 } },
  ...extra,
});
const notebook = (cells: unknown[]): string => `${JSON.stringify({ version: 1, metadata: {}, cells }, null, 2)}\n`;

describe('cassette collisions', { timeout: 180_000 }, () => {
  const scratch = scratchDir('ptc-cassette-collisions-');
  const folder = (name: string, files: Record<string, string>): string => {
    const dir = path.join(scratch.dir, name);
    fs.mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    return dir;
  };

  it('ptc test refuses the same id twice in a notebook, naming both cells, and writes nothing', async () => {
    const dir = folder('twice', {
      'a.ptcnb': notebook([{ kind: 'markdown', source: '# a' }, code(expecting('run-1')), code(expecting('run-1'))]),
    });
    const run = await ptcWith({ cwd: scratch.dir }, 'test', 'twice', '--live', '--update');
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toBe(
      `ptc test: ${path.join('twice', '.ptc', 'cassettes', 'run-1.json')} would be the cassette of twice/a.ptcnb cell 2, twice/a.ptcnb cell 3: recording one overwrites what the others replay; give each cell an id of its own (metadata.id), or name a cassette shared on purpose with metadata.cassette\n`,
    );
    expect(run.stdout).toBe('');
    expect(fs.existsSync(path.join(dir, '.ptc'))).toBe(false);
  });

  it('ptc test refuses one id in two notebooks of a folder, also when only one of them is named', async () => {
    folder('pair', {
      'first.ptcnb': notebook([code(expecting('run-1'))]),
      'second.ptcnb': notebook([code(expecting('run-1'))]),
    });
    for (const target of ['pair', 'pair/first.ptcnb']) {
      const run = await ptcWith({ cwd: scratch.dir }, 'test', target);
      expect(run.code, target).toBe(2);
      expect(run.stderr).toContain('would be the cassette of pair/first.ptcnb cell 1, pair/second.ptcnb cell 1');
    }
  });

  it('ptc notebook refuses a record cell whose cassette another cell replays under its positional name', async () => {
    const dir = folder('positional', {
      'n.ptcnb': notebook([code({ id: 'cell-2', mode: 'record' }), code({ mode: 'replay' })]),
    });
    const run = await ptcWith({ cwd: dir }, 'notebook', 'n.ptcnb');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${path.join('.ptc', 'cassettes', 'cell-2.json')} would be the cassette of n.ptcnb cell 1, n.ptcnb cell 2`,
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
    expect(fs.existsSync(path.join(dir, '.ptc', 'cassettes', 'host.json'))).toBe(true);
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
