// Part of one vocabulary for the CLI (issue 28.10), as real processes: a limit outside what the runtime accepts is
// refused under the flag's own name (700000 ms used to be capped silently), and a .js program needs no --language.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptc, scratchDir } from './cli-harness.js';

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
