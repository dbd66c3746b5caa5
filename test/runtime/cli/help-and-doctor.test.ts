// The CLI explains itself (issues 28.3, 28.4, 28.9), as a real process: every command's --help and -h, --version,
// our words for a bad flag, completion scripts that a real bash runs, ptc doctor, and ptc test with nothing to test.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ptc, ptcWith, scratchDir } from './cli-harness.js';

const COMMANDS = ['run', 'notebook', 'sdk', 'import', 'test', 'eval', 'doctor'];

describe('ptc explains itself', { timeout: 180_000 }, () => {
  const scratch = scratchDir('ptc-help-');

  it('every command answers --help and -h: synopsis, every flag with its default, exit codes, two examples; exit 0', async () => {
    for (const name of COMMANDS) {
      const long = await ptc(name, '--help');
      const short = await ptc(name, '-h');
      expect(long.code, `${name}: ${long.stderr}`).toBe(0);
      expect(short.stdout).toBe(long.stdout);
      expect(long.stdout).toMatch(new RegExp(`^ptc ${name} — .+\\n\\nusage:\\n  ptc ${name}`));
      for (const section of ['options:', 'exit codes:', 'examples:', '-h, --help', '130 by SIGINT'])
        expect(long.stdout).toContain(section);
      expect(long.stdout.split('examples:')[1]?.match(/^ {2}# /gm)).toHaveLength(2);
      // each code means one thing, listed once, in order (run's approval denial once shared 3 with an internal error)
      const codes = [
        ...(long.stdout.split('exit codes:')[1]?.split('examples:')[0] ?? '').matchAll(/^ {2}(\d+) /gm),
      ].map((m) => Number(m[1]));
      expect(codes, name).toEqual([...new Set(codes)].sort((a, b) => a - b));
      expect(codes, name).toEqual(expect.arrayContaining([0, 2, 3, 129]));
    }
    const run = (await ptc('run', '--help')).stdout;
    for (const flag of [
      '--language typescript|python',
      '--bindings <module>',
      '--mode mock|live',
      '--record',
      '--replay',
      '--deterministic',
      '--seed N',
      '--trace',
      '--json',
    ])
      expect(run).toContain(flag);
    expect(run).toMatch(/--timeout-ms N +wall-clock limit of one run \(at most 600000\) \(default: 120000\)/);
    expect(run).toMatch(/--sandbox required\|best-effort\|off .*\(default: best-effort\)/);
    // help after other flags, and `ptc help <command>`, are the same page
    expect((await ptc('run', 'x.ts', '--json', '--help')).stdout).toBe(run);
    expect((await ptc('help', 'run')).stdout).toBe(run);
  });

  it('--version prints the package version; a bad flag is one line in our words naming the fix', async () => {
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    const version = await ptc('--version');
    expect(version.code).toBe(0);
    expect(version.stdout).toBe(`ptc ${manifest.version} (node ${process.versions.node})\n`);
    expect((await ptc('-V')).stdout).toBe(version.stdout);
    const typo = await ptc('run', 'x.ts', '--bindngs', 'b.mjs');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('ptc run: unknown option --bindngs (did you mean --bindings?) (see: ptc run --help)\n');
    const missing = await ptc('test', '--jobs');
    expect(missing.stderr).toBe('ptc test: --jobs needs a value (N) (see: ptc test --help)\n');
  });

  it('completion scripts: bash completes commands, flags and their words; zsh and fish scripts are generated', async () => {
    const bash = await ptc('completion', 'bash');
    expect(bash.code).toBe(0);
    const script = scratch.write('ptc.bash', bash.stdout);
    const complete = (words: string[]): string[] =>
      execFileSync(
        'bash',
        [
          '-c',
          `source ${JSON.stringify(script)}; COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; _ptc; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      )
        .split('\n')
        .filter((l) => l !== '');
    expect(complete(['ptc', ''])).toEqual(expect.arrayContaining(COMMANDS));
    expect(complete(['ptc', 'ru'])).toEqual(['run']);
    expect(complete(['ptc', 'run', '--mo'])).toEqual(['--mode']);
    expect(complete(['ptc', 'run', '--mode', ''])).toEqual(['mock', 'live']);
    expect(complete(['ptc', 'test', '--reporter', 'j'])).toEqual(['junit', 'json']);
    expect(complete(['ptc', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    for (const shell of ['zsh', 'fish']) {
      const out = await ptc('completion', shell);
      expect(out.code).toBe(0);
      for (const name of COMMANDS) expect(out.stdout).toContain(name);
    }
    expect((await ptc('completion', 'powershell')).code).toBe(2);
  });

  it('ptc doctor: versions, bubblewrap, the sandbox verdict per language with its layers; --json too', async () => {
    const text = await ptc('doctor');
    expect(text.code, text.stderr).toBe(0);
    for (const line of [
      /^ptc +\d+\.\d+\.\d+/m,
      /^node +v\d+/m,
      /^python3 +Python 3\./m,
      /^bubblewrap +/m,
      /^sandbox \(typescript\): (full|partial|none) — network/m,
      /^sandbox \(python\): /m,
    ])
      expect(text.stdout).toMatch(line);
    const json = JSON.parse((await ptc('doctor', '--json')).stdout) as {
      sandbox: Record<string, { enforcement: string }>;
    };
    expect(['full', 'partial', 'none']).toContain(json.sandbox.typescript?.enforcement);
  });

  it('ptc test with no expectation cell exits 5 with a line saying what to do, unless --pass-with-no-tests', async () => {
    const dir = path.join(scratch.dir, 'no-tests');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'a.ptcnb'),
      JSON.stringify({ version: 1, cells: [{ kind: 'code', language: 'typescript', source: 'return 1;' }] }),
    );
    const none = await ptcWith({ cwd: dir }, 'test');
    expect(none.code).toBe(5);
    expect(none.stderr).toContain('ptc test: no expectation cell to check in 1 notebook(s)');
    expect((await ptcWith({ cwd: dir }, 'test', '--pass-with-no-tests')).code).toBe(0);
  });
});
