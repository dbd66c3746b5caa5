// `ptc test --mode live` and `--mode live --update` as real processes (issue 28.1): every cell of a notebook reaches
// the live handlers at any --jobs (spares started together used to drain the host's connections: "bindings host is not
// running"), and a run that failed outside the program (the bindings host lost) is never stored as the truth.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptcWith, scratchDir } from './cli-harness.js';

const BINDINGS = `export default {
  tools: {
    functions: {
      lookup: {
        mock: async ({ q }) => ({ q, via: 'mock' }),
        live: async ({ q }) => {
          // the host process dies in the middle of a call: the machine failed, not the program
          if (q === 'crash') process.exit(7);
          return { q, via: 'live' };
        },
      },
    },
  },
};
`;

const EXPECT = { value: { match: 'exact' }, calls: { match: 'exact' } };

function notebook(cells: { id: string; language: 'typescript' | 'python'; source: string }[]): string {
  const body = {
    version: 1,
    metadata: { bindings: 'tools.bindings.mjs', mode: 'mock' },
    cells: cells.map((c) => ({
      kind: 'code',
      language: c.language,
      source: c.source,
      metadata: { id: c.id, expect: EXPECT },
    })),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

// eight cells, both languages, each making calls (the third cell of four failed even with --jobs 1)
const CELLS = Array.from({ length: 8 }, (_, i) =>
  i % 2 === 0
    ? {
        id: `ts-${i}`,
        language: 'typescript' as const,
        source: `const a = await tools.lookup({ q: 'a${i}' });\nconst b = await tools.lookup({ q: 'b${i}' });\nreturn [a.via, b.via];`,
      }
    : {
        id: `py-${i}`,
        language: 'python' as const,
        source: `a = await tools.lookup({'q': 'a${i}'})\nb = await tools.lookup({'q': 'b${i}'})\nreturn [a['via'], b['via']]`,
      },
);

describe('ptc test --mode live', { timeout: 300_000 }, () => {
  const scratch = scratchDir('ptc-live-update-');

  for (const jobs of ['1', '4']) {
    it(`--jobs ${jobs}: every cell reaches the live handlers, and --update records all of them`, async () => {
      const dir = path.join(scratch.dir, `jobs-${jobs}`);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'tools.bindings.mjs'), BINDINGS);
      fs.writeFileSync(path.join(dir, 'a.ptcnb'), notebook(CELLS));
      const live = await ptcWith({ cwd: dir }, 'test', '--mode', 'live', '--update', '--jobs', jobs, 'a.ptcnb');
      expect(live.stdout + live.stderr).not.toContain('not running');
      expect(live.code, live.stdout + live.stderr).toBe(0);
      const saved = JSON.parse(fs.readFileSync(path.join(dir, 'a.ptcnb'), 'utf8')) as {
        cells: { metadata: { expect: { value: { is?: unknown } } } }[];
      };
      for (const cell of saved.cells) expect(cell.metadata.expect.value.is).toEqual(['live', 'live']);
      for (const cell of CELLS) {
        const cassette = JSON.parse(fs.readFileSync(path.join(dir, '.ptc/cassettes/a', `${cell.id}.json`), 'utf8')) as {
          calls: unknown[];
        };
        expect(cassette.calls).toHaveLength(2);
      }
      // and offline from what was recorded
      const offline = await ptcWith({ cwd: dir }, 'test', '--jobs', jobs, 'a.ptcnb');
      expect(offline.code, offline.stdout).toBe(0);
      expect(offline.stdout.trimEnd().split('\n').at(-1)).toBe('8 passed, 0 failed');
    });
  }

  it('--mode live --update refuses a run whose bindings host died: exit 1, its cassette and expectation untouched', async () => {
    const dir = path.join(scratch.dir, 'crash');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'tools.bindings.mjs'), BINDINGS);
    const cells = [
      { id: 'fine', language: 'typescript' as const, source: "return (await tools.lookup({ q: 'x' })).via;" },
      { id: 'crash', language: 'typescript' as const, source: "return await tools.lookup({ q: 'crash' });" },
      { id: 'py-crash', language: 'python' as const, source: "return await tools.lookup({'q': 'crash'})" },
    ];
    fs.writeFileSync(path.join(dir, 'a.ptcnb'), notebook(cells));
    const before = JSON.parse(fs.readFileSync(path.join(dir, 'a.ptcnb'), 'utf8')) as {
      cells: { metadata: { expect: unknown } }[];
    };
    const run = await ptcWith({ cwd: dir }, 'test', '--mode', 'live', '--update', 'a.ptcnb');
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(
      /crash\n\s+the run failed outside the program: the bindings host exited with code 7 during the run; its cassette and expectation were left as they were/,
    );
    const after = JSON.parse(fs.readFileSync(path.join(dir, 'a.ptcnb'), 'utf8')) as {
      cells: { metadata: { expect: unknown } }[];
    };
    // the healthy cell was recorded; the two that lost the host were not
    expect(after.cells[0]?.metadata.expect).not.toEqual(before.cells[0]?.metadata.expect);
    expect(after.cells[1]?.metadata.expect).toEqual(before.cells[1]?.metadata.expect);
    expect(after.cells[2]?.metadata.expect).toEqual(before.cells[2]?.metadata.expect);
    expect(fs.existsSync(path.join(dir, '.ptc/cassettes/a/fine.json'))).toBe(true);
    expect(fs.existsSync(path.join(dir, '.ptc/cassettes/a/crash.json'))).toBe(false);
    expect(fs.existsSync(path.join(dir, '.ptc/cassettes/a/py-crash.json'))).toBe(false);
    // `ptc run --record` refuses the same way
    const program = scratch.write('crash.ts', "return await tools.lookup({ q: 'crash' });");
    const cassette = path.join(dir, 'run-crash.json');
    const recorded = await ptcWith(
      { cwd: dir },
      'run',
      program,
      '--bindings',
      'tools.bindings.mjs',
      '--mode',
      'live',
      '--record',
      cassette,
    );
    expect(recorded.code).toBe(1);
    expect(recorded.stderr).toContain('the run failed outside the program');
    expect(fs.existsSync(cassette)).toBe(false);
  });
});
