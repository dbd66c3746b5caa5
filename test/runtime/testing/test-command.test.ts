// `ptc test` as a real process over real notebooks: TypeScript and Python cells (real python3), their bindings in a
// real bindings host, cassettes recorded with --mode live --update and replayed offline.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = path.resolve('dist/cli.mjs');
const exec = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function ptcTest(cwd: string, ...argv: string[]): Promise<Outcome> {
  try {
    // a `ptc test` that never exits fails its test with what it printed, not a bare vitest timeout
    const { stdout, stderr } = await exec(process.execPath, [CLI, 'test', ...argv], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 120_000,
      killSignal: 'SIGKILL',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// live answers carry a changing field; `LIVE_SHAPE=string` makes the live answer change shape (for drift)
const BINDINGS = `export default {
  tools: {
    functions: {
      lookup: {
        mock: async ({ q }) => ({ q, n: 1, id: 'mock' }),
        live: async ({ q }) => {
          if (process.env.PTC_TEST_FORBID_LIVE === '1') throw new Error('live handler ran');
          const fs = await import('node:fs');
          const drift = fs.existsSync('shape-drift');
          return { q, n: drift ? 'two' : 2, id: 'live-' + Math.random().toString(36).slice(2) };
        },
      },
    },
  },
};
`;

const SKELETON = {
  value: { match: 'exact', mask: ['$.id'] },
  logs: { match: 'exact' },
  error: { match: 'exact' },
  calls: { match: 'exact', is: [{ call: 'x.y', args: null }] },
};

function notebook(
  cells: { id: string; language: 'typescript' | 'python'; source: string; cassette?: string; expect?: unknown }[],
): string {
  return `${JSON.stringify(
    {
      version: 1,
      metadata: { bindings: 'tools.bindings.mjs', mode: 'mock' },
      cells: cells.map((c) => ({
        kind: 'code',
        language: c.language,
        source: c.source,
        metadata: {
          id: c.id,
          ...(c.cassette === undefined ? {} : { cassette: c.cassette }),
          ...(c.expect === undefined ? {} : { expect: c.expect }),
        },
      })),
    },
    null,
    2,
  )}\n`;
}

const TS_CELL = {
  id: 'ts',
  language: 'typescript' as const,
  source: "const r = await tools.lookup({ q: 'a' });\nconsole.log('got', r.q);\nreturn r;",
  expect: SKELETON,
};
const PY_CELL = {
  id: 'py',
  language: 'python' as const,
  source: "r = await tools.lookup({'q': 'b'})\nprint('got', r['q'])\nreturn r",
  expect: SKELETON,
};
const PLAIN_CELL = { id: 'plain', language: 'typescript' as const, source: 'return 1;' };

let dir: string;
const file = (name: string): string => path.join(dir, name);
const read = (name: string): string => fs.readFileSync(file(name), 'utf8');
const write = (name: string, text: string): void => {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true });
  fs.writeFileSync(file(name), text);
};
const expectation = (nb: string, id: string): Record<string, { match: string; is?: unknown; mask?: string[] }> => {
  const parsed = JSON.parse(read(nb)) as {
    cells: { metadata: { id: string; expect: Record<string, { match: string }> } }[];
  };
  return parsed.cells.find((c) => c.metadata.id === id)?.metadata.expect as Record<
    string,
    { match: string; is?: unknown; mask?: string[] }
  >;
};
const setExpectation = (nb: string, id: string, change: (e: Record<string, unknown>) => void): void => {
  const parsed = JSON.parse(read(nb)) as { cells: { metadata: { id: string; expect: Record<string, unknown> } }[] };
  const cell = parsed.cells.find((c) => c.metadata.id === id);
  if (cell === undefined) throw new Error(`no cell ${id}`);
  change(cell.metadata.expect);
  write(nb, `${JSON.stringify(parsed, null, 2)}\n`);
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-test-cmd-'));
  write('tools.bindings.mjs', BINDINGS);
  write('suite/a.ptcnb', notebook([TS_CELL, PY_CELL, PLAIN_CELL]));
  fs.copyFileSync(file('tools.bindings.mjs'), file('suite/tools.bindings.mjs'));
  // record every cassette and expectation once; the tests below start from this state
  const recorded = await ptcTest(dir, 'suite', '--mode', 'live', '--update');
  expect(recorded.stderr).toBe('');
  expect(recorded.code).toBe(0);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// each test runs ptc several times over shared files: a test cut off by a timeout would leave its edits to the next one
describe('ptc test', { timeout: 300_000 }, () => {
  it('--mode live --update writes each test cell its expectation and cassette, keeping match modes and masks', () => {
    const ts = expectation('suite/a.ptcnb', 'ts');
    expect(ts.value).toMatchObject({ match: 'exact', mask: ['$.id'], is: { q: 'a', n: 2 } });
    expect(ts.logs).toEqual({ match: 'exact', is: ['got a'] });
    expect(ts.error).toEqual({ match: 'exact', is: null });
    expect(ts.calls).toEqual({ match: 'exact', is: [{ call: 'tools.lookup', args: { q: 'a' } }] });
    expect(expectation('suite/a.ptcnb', 'py').logs).toEqual({ match: 'exact', is: ['got b'] });
    const cassette = JSON.parse(read('suite/.ptc/cassettes/a/py.json')) as { calls: { value: { n: number } }[] };
    expect(cassette.calls[0]?.value.n).toBe(2);
    // the cell without an expectation is no test: nothing recorded for it
    expect(fs.existsSync(file('suite/.ptc/cassettes/a/plain.json'))).toBe(false);
  });

  it('replays offline by default: no live handler runs, the summary is the plain last line, exit 0', async () => {
    const run = await execOffline(['suite']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^✓ suite\/a\.ptcnb {2}2 passed/m);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed');
  });

  it('a run that differs fails with what was expected, what came and where it first differs; exit 1', async () => {
    const cassettePath = file('suite/.ptc/cassettes/a/ts.json');
    const original = fs.readFileSync(cassettePath, 'utf8');
    try {
      fs.writeFileSync(cassettePath, original.replace('"n": 2', '"n": 3'));
      const run = await ptcTest(dir, 'suite');
      expect(run.code).toBe(1);
      expect(run.stdout).toContain('✗ suite/a.ptcnb  1 passed, 1 failed');
      expect(run.stdout).toContain('value (exact) differs at $.n: different value');
      expect(run.stdout).toMatch(/expected: 2\n\s+got: +3/);
      expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('1 passed, 1 failed');
      // masked: the changing id never fails the cell, and shape mode accepts another number
      setExpectation('suite/a.ptcnb', 'ts', (e) => ((e.value as { match: string }).match = 'shape'));
      expect((await ptcTest(dir, 'suite')).code).toBe(0);
      fs.writeFileSync(cassettePath, original.replace('"n": 2', '"n": "2"'));
      const shape = await ptcTest(dir, 'suite');
      expect(shape.code).toBe(1);
      expect(shape.stdout).toContain('value (shape) differs at $.n: expected a number, got a string');
    } finally {
      fs.writeFileSync(cassettePath, original);
      setExpectation('suite/a.ptcnb', 'ts', (e) => ((e.value as { match: string }).match = 'exact'));
    }
  });

  it('--mode live reports drift against the cassette: changed values and changed shapes', async () => {
    write('suite/shape-drift', '');
    try {
      const run = await ptcTest(dir, 'suite', '--mode', 'live');
      expect(run.stdout).toMatch(
        /drift \(shape\) tools\.lookup\(\{"q":"a"\}\): \$\.n: expected a number, got a string/,
      );
      expect(run.stdout).toMatch(/drift \(shape\) tools\.lookup\(\{"q":"b"\}\)/);
      // the live value also breaks the exact expectation of n
      expect(run.code).toBe(1);
    } finally {
      fs.rmSync(file('suite/shape-drift'));
    }
    const same = await ptcTest(dir, 'suite', '--mode', 'live');
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/drift \(value\) tools\.lookup\(\{"q":"a"\}\): \$\.id: recorded "live-/);
  });

  it('junit and json reporters; progress stays on the terminal', async () => {
    const junit = await ptcTest(dir, 'suite', '--reporter', 'junit', '--output', 'out/report.xml');
    expect(junit.code).toBe(0);
    const xml = read('out/report.xml');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="ptc test" tests="2" failures="0" skipped="0"/,
    );
    expect(xml).toContain('<testsuite name="suite/a.ptcnb" tests="2" failures="0"');
    expect(xml).toMatch(/<testcase classname="suite\/a.ptcnb" name="ts" time="[\d.]+"\/>/);
    expect(junit.stdout).toContain('2 passed, 0 failed');
    const json = await ptcTest(dir, 'suite', '--reporter', 'json');
    const report = JSON.parse(json.stdout) as {
      summary: unknown;
      notebooks: { path: string; cells: { name: string; status: string }[] }[];
    };
    expect(report.summary).toEqual({ passed: 2, failed: 0, skipped: 0, stopped: false });
    expect(report.notebooks[0]?.cells.map((c) => [c.name, c.status])).toEqual([
      ['ts', 'passed'],
      ['py', 'passed'],
    ]);
    expect(json.stderr).toContain('2 passed, 0 failed');
  });

  it('a failure in junit names the cell and the difference; a skipped cell is counted', async () => {
    write(
      'other/b.ptcnb',
      notebook([
        { ...PLAIN_CELL, expect: { value: { match: 'exact', is: 2 } } },
        { id: 'later', language: 'typescript', source: 'return 1;', expect: { skip: 'not yet' } },
      ]),
    );
    fs.copyFileSync(file('tools.bindings.mjs'), file('other/tools.bindings.mjs'));
    write('other/.ptc/cassettes/b/plain.json', '{ "version": 1, "calls": [] }\n');
    const run = await ptcTest(dir, 'other', '--reporter', 'junit', '--output', 'out/b.xml');
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed, 1 skipped');
    const xml = read('out/b.xml');
    expect(xml).toContain('<failure message="value (exact) differs at $: different value">');
    expect(xml).toContain('<skipped message="not yet"/>');
  });

  it('a cell without a cassette fails offline and says how to record one', async () => {
    write('nocassette/c.ptcnb', notebook([{ ...TS_CELL, id: 'fresh' }]));
    fs.copyFileSync(file('tools.bindings.mjs'), file('nocassette/tools.bindings.mjs'));
    const run = await ptcTest(dir, 'nocassette');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('could not run (cassette): no cassette for this cell');
    expect(run.stdout).toContain('ptc test --mode live --update');
  });

  it('a cell that calls no tools passes offline without a cassette, in both languages, and --update writes none', async () => {
    write(
      'nocalls/c.ptcnb',
      notebook([
        {
          id: 'ts-pure',
          language: 'typescript',
          source: 'return [1, 2].map((n) => n * 2);',
          expect: { value: { match: 'exact', is: [2, 4] } },
        },
        {
          id: 'py-pure',
          language: 'python',
          source: 'return [n * 2 for n in (1, 2)]',
          expect: { value: { match: 'exact', is: [2, 4] } },
        },
      ]),
    );
    fs.copyFileSync(file('tools.bindings.mjs'), file('nocalls/tools.bindings.mjs'));
    const run = await ptcTest(dir, 'nocalls');
    expect(run.stdout.trimEnd().split('\n').at(-1), run.stdout + run.stderr).toBe('2 passed, 0 failed');
    expect(run.code).toBe(0);
    expect((await ptcTest(dir, 'nocalls', '--update')).code).toBe(0);
    expect(fs.existsSync(file('nocalls/.ptc'))).toBe(false);
  });

  it('--shard i/n splits the notebooks deterministically: the shards are disjoint and cover every notebook', async () => {
    for (const name of ['s1', 's2', 's3', 's4', 's5']) {
      // five notebooks of one folder, each with a cell of the same id: each notebook has its own cassette of it
      write(`shards/${name}.ptcnb`, notebook([{ ...PLAIN_CELL, expect: { value: { match: 'exact', is: 1 } } }]));
      write(`shards/.ptc/cassettes/${name}/plain.json`, '{ "version": 1, "calls": [] }\n');
    }
    fs.copyFileSync(file('tools.bindings.mjs'), file('shards/tools.bindings.mjs'));
    const names = async (shard: string): Promise<string[]> => {
      const run = await ptcTest(dir, 'shards', '--shard', shard, '--reporter', 'json');
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as { notebooks: { path: string }[] }).notebooks.map((n) => n.path);
    };
    const [one, two, again] = await Promise.all([names('1/2'), names('2/2'), names('1/2')]);
    expect(one).toEqual(again);
    expect(one.length + two.length).toBe(5);
    expect([...one, ...two].sort()).toEqual(['s1', 's2', 's3', 's4', 's5'].map((n) => `shards/${n}.ptcnb`));
    expect(Math.abs(one.length - two.length)).toBeLessThanOrEqual(1);
  });

  it('--jobs 2 runs the same suite to the same outcome', async () => {
    const run = await ptcTest(dir, 'suite', 'shards', '--jobs', '2');
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe('7 passed, 0 failed');
  });

  it('globs select notebooks; misuse exits 2 with one line naming the problem', async () => {
    const glob = await ptcTest(dir, 'shards/s[12].ptcnb', '--reporter', 'json');
    expect((JSON.parse(glob.stdout) as { notebooks: unknown[] }).notebooks).toHaveLength(2);
    const misuse: Promise<{ args: readonly string[]; message: string; run: Outcome }>[] = [];
    for (const [args, message] of [
      [['--shard', '3/2'], '--shard 3/2: i must be between 1 and n'],
      [['--shard', 'x'], '--shard expects i/n'],
      [['--jobs', '0'], '--jobs expects 1 to 64'],
      [['missing-folder'], 'no such file or folder: missing-folder'],
      [['--output', 'x.xml'], '--output needs --reporter junit or json'],
      [['--reporter', 'tap'], '--reporter expects one of text|junit|json'],
    ] as const) {
      misuse.push(ptcTest(dir, ...args).then((run) => ({ args, message, run })));
    }
    // every misuse is refused before any cell runs: the processes run side by side
    for (const { args, message, run } of await Promise.all(misuse)) {
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });
});

// offline runs must not need the live handlers: the module forbids them through the environment
async function execOffline(args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, 'test', ...args], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PTC_TEST_FORBID_LIVE: '1' },
      timeout: 120_000,
      killSignal: 'SIGKILL',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
