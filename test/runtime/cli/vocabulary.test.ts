// Part of one vocabulary for the CLI (issue 28.10), as real processes: a limit outside what the runtime accepts is
// refused under the flag's own name (700000 ms used to be capped silently), and a .js program needs no --language.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptc, ptcWith, scratchDir } from './cli-harness.js';

describe('ptc flags', { timeout: 120_000 }, () => {
  const scratch = scratchDir('ptc-vocabulary-');

  it('limits out of range exit 2 naming the flag and its range, on every command that runs programs', async () => {
    const file = scratch.write('one.ts', 'return 1;');
    const cases: [string[], string][] = [
      [['run', file, '--timeout-ms', '700000'], 'ptc run: --timeout-ms expects 1 to 600000, got 700000\n'],
      [['run', file, '--timeout-ms', '1e23'], 'ptc run: --timeout-ms expects a positive integer, got "1e23"\n'],
      [['run', file, '--memory-mb', '8'], 'ptc run: --memory-mb expects 16 to 16384, got 8\n'],
      [['test', '--max-output-bytes', '2'], 'ptc test: --max-output-bytes expects 4 to 1073741824, got 2\n'],
      [['notebook', 'x.ptcnb', '--tmp-mb', '0'], 'ptc notebook: --tmp-mb expects 1 to 16384, got 0\n'],
    ];
    for (const [argv, message] of cases) {
      const run = await ptc(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toBe(message);
    }
  });

  it('--replay with --mode is refused alike by run, notebook and eval (a replay runs no handler)', async () => {
    const file = scratch.write('replayed.ts', 'return 1;');
    const cases: [string, string[]][] = [
      ['run', ['run', file, '--replay', 'x.json', '--mode', 'live']],
      ['notebook', ['notebook', 'x.ptcnb', '--replay', 'dir', '--mode', 'mock']],
      [
        'eval',
        ['eval', 'tasks.jsonl', '--bindings', 'b.mjs', '--models', 'openai:m', '--replay', 'dir', '--mode', 'live'],
      ],
    ];
    for (const [command, argv] of cases) {
      const run = await ptc(...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toBe(`ptc ${command}: --replay and --mode cannot be combined (a replay runs no handler)\n`);
    }
  });

  it('one spelling per idea: -o/--output and --json where a command writes a file or prints JSON; --out still works, with a warning, and is not in help', async () => {
    for (const command of ['test', 'eval', 'import']) {
      const help = (await ptc(command, '--help')).stdout;
      expect(help, command).toMatch(/-o, --output </);
      expect(help, command).not.toMatch(/--out\b(?!put)/);
    }
    expect((await ptc('test', '--help')).stdout).toMatch(/--json +the JSON report/);
    const transcript = path.resolve('examples/transcripts/anthropic-sales.json');
    // a folder each: both imports write the same cell's cassette beside their notebook
    for (const sub of ['old', 'short']) fs.mkdirSync(path.join(scratch.dir, sub));
    const old = await ptc('import', transcript, '--out', path.join(scratch.dir, 'old', 'old.ptcnb'));
    expect(old.code, old.stderr).toBe(0);
    expect(old.stderr).toBe('ptc import: --out is now --output (the old spelling still works)\n');
    expect(fs.existsSync(path.join(scratch.dir, 'old', 'old.ptcnb'))).toBe(true);
    const short = await ptc('import', transcript, '-o', path.join(scratch.dir, 'short', 'short.ptcnb'));
    expect(short.code, short.stderr).toBe(0);
    expect(short.stderr).toBe('');
    const both = await ptc('import', transcript, '--out', 'a.ptcnb', '--output', 'b.ptcnb');
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('ptc import: --out is an old spelling of --output: give one of them\n');
    const clash = await ptc('test', '--json', '--reporter', 'junit');
    expect(clash.code).toBe(2);
    expect(clash.stderr).toBe('ptc test: --json and --reporter junit ask for two reports: give one\n');
  });

  it('--mode live is the one spelling of live handlers: ptc test takes it as run, notebook and eval do; --live still works, warning once, and is not in help', async () => {
    const help = (await ptc('test', '--help')).stdout;
    expect(help).toMatch(/--mode <replay\|live>|--mode replay\|live/);
    expect(help).not.toMatch(/--live\b/);
    const dir = path.join(scratch.dir, 'modes');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'n.ptcnb'),
      JSON.stringify({
        version: 1,
        cells: [
          {
            kind: 'code',
            language: 'typescript',
            source: 'return 1;',
            metadata: { id: 'one', expect: { value: { match: 'exact', is: 1 } } },
          },
        ],
      }),
    );
    const spelled = await ptcWith({ cwd: dir }, 'test', '--mode', 'live');
    expect(spelled.code, spelled.stdout + spelled.stderr).toBe(0);
    expect(spelled.stderr).toBe('');
    const old = await ptcWith({ cwd: dir }, 'test', '--live');
    expect(old.code, old.stdout + old.stderr).toBe(0);
    expect(old.stderr).toBe('ptc test: --live is now --mode live (the old spelling still works)\n');
    const timeless = (text: string): string => text.replace(/\d+\.\d s/g, 'T');
    expect(timeless(old.stdout)).toBe(timeless(spelled.stdout));
    const both = await ptcWith({ cwd: dir }, 'test', '--live', '--mode', 'replay');
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('ptc test: --live is an old spelling of --mode live: give one of them\n');
    const wrong = await ptcWith({ cwd: dir }, 'test', '--mode', 'mock');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('ptc test: --mode expects one of replay|live, got "mock"\n');
  });

  it('--record and --replay: one cassette file for ptc run, a folder for ptc notebook; the wrong kind exits 2 before anything runs', async () => {
    const dir = path.join(scratch.dir, 'kinds');
    fs.mkdirSync(path.join(dir, 'folder'), { recursive: true });
    const program = path.join(dir, 'p.ts');
    fs.writeFileSync(program, 'return 1;');
    fs.writeFileSync(path.join(dir, 'one.json'), '{ "version": 1, "calls": [] }\n');
    fs.writeFileSync(path.join(dir, 'n.ptcnb'), JSON.stringify({ version: 1, cells: [] }));
    const cases: [string[], string][] = [
      [
        ['run', program, '--record', path.join(dir, 'folder')],
        `ptc run: --record takes one cassette file, got the folder ${path.join(dir, 'folder')} (ptc notebook --record takes a folder)\n`,
      ],
      [
        ['run', program, '--replay', 'folder/'],
        'ptc run: --replay takes one cassette file, got the folder folder/ (ptc notebook --replay takes a folder)\n',
      ],
      [
        ['notebook', 'n.ptcnb', '--record', 'new.json'],
        'ptc notebook: --record takes a folder of cassettes, got the file new.json (ptc run --record takes one cassette file)\n',
      ],
      [
        ['notebook', 'n.ptcnb', '--replay', 'one.json'],
        'ptc notebook: --replay takes a folder of cassettes, got the file one.json (ptc run --replay takes one cassette file)\n',
      ],
    ];
    for (const [argv, message] of cases) {
      const run = await ptcWith({ cwd: dir }, ...argv);
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toBe(message);
      expect(run.stdout).toBe('');
    }
    expect(fs.existsSync(path.join(dir, 'new.json'))).toBe(false);
  });

  it('ptc eval whose model never answers exits 1 with one line saying so (it used to exit 0 with a table of failures)', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const run = await ptcWith(
      { env: { ...process.env, OPENAI_API_KEY: 'sk-none' } },
      'eval',
      path.resolve('examples/models/tasks.jsonl'),
      '--bindings',
      path.resolve('examples/programs/tools.bindings.mjs'),
      '--replay',
      path.resolve('examples/models/cassettes'),
      '--models',
      `openai:nobody@http://127.0.0.1:${port}/v1`,
      '--modes',
      'code',
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /^ptc eval: (\d+) of \1 run\(s\) never got an answer from their model \(openai:nobody: model-[a-z-]+\); the table measures nothing for them$/m,
    );
  });

  it('a .js program runs as TypeScript without --language', async () => {
    const run = await ptc(
      'run',
      scratch.write('plain.js', 'const n = [1, 2, 3].map((x) => x * 2);\nreturn n;'),
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as { value: unknown }).value).toEqual([2, 4, 6]);
  });
});
