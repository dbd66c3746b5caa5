// Every command in README.md and docs/*.md runs as written (issue 28.8): each sh/bash/shell/console block (the
// convention is in docs-blocks.ts and the README's "Commands in the docs are tested") runs from the root of a fresh
// copy of the repository (its files as git sees them, committed to a private git; node_modules linked, dist/ copied),
// must exit 0, must print what a console block documents, and must leave `git status` clean. A block that needs
// what a test cannot have (a model API key, VS Code, the whole suite) says skip="why", and is listed as skipped.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ptcShim, scratchDir } from './cli-harness.js';
import { COMMAND_LANGUAGES, consoleSteps, fencedBlocks, matchesDocumented, type FencedBlock } from './docs-blocks.js';

const exec = promisify(execFile);
const repo = path.resolve('.');
const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(repo, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const blocks = DOCS.flatMap((file) => fencedBlocks(file, fs.readFileSync(path.join(repo, file), 'utf8'))).filter((b) =>
  COMMAND_LANGUAGES.has(b.language),
);
// the slowest block (npm run demo builds, runs two notebooks, imports, replays and evaluates) takes ~1 min alone
const BLOCK_KILL_MS = 600_000;

describe('commands in README.md and docs/', { timeout: BLOCK_KILL_MS + 60_000 }, () => {
  const scratch = scratchDir('ptc-docs-commands-');
  const copy = path.join(scratch.dir, 'repo');
  const bin = path.join(scratch.dir, 'bin');
  // `ptc` on PATH as after `npm install -g`, running the copy's build; npx resolves the copy's own bin
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    npm_config_offline: 'true',
    CI: 'true',
  };
  const git = (...argv: string[]): string => execFileSync('git', argv, { cwd: copy, encoding: 'utf8' });

  beforeAll(() => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: repo,
      encoding: 'utf8',
    })
      .split('\0')
      .filter((f) => f !== '' && fs.existsSync(path.join(repo, f)));
    for (const file of files) fs.cpSync(path.join(repo, file), path.join(copy, file), { verbatimSymlinks: true });
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
    // a copy, not a link: a block that builds (npm run demo) writes into it, not under the other suites' feet
    fs.cpSync(path.join(repo, 'dist'), path.join(copy, 'dist'), { recursive: true });
    ptcShim(bin, path.join(copy, 'dist', 'cli.mjs'));
    git('init', '-q');
    git('add', '-A');
    git(
      '-c',
      'user.name=docs',
      '-c',
      'user.email=docs@localhost',
      'commit',
      '-q',
      '--no-verify',
      '-m',
      'the documented tree',
    );
  }, 300_000);

  const shell = async (script: string): Promise<{ code: number; output: string }> => {
    try {
      // one stream, as a terminal shows it (Node writes both to a pipe synchronously, so the order holds)
      const { stdout } = await exec(
        'bash',
        ['--noprofile', '--norc', '-e', '-o', 'pipefail', '-c', `exec 2>&1\n${script}`],
        {
          cwd: copy,
          env,
          encoding: 'utf8',
          timeout: BLOCK_KILL_MS,
          killSignal: 'SIGKILL',
          maxBuffer: 64 << 20,
        },
      );
      return { code: 0, output: stdout };
    } catch (error) {
      const e = error as { code: number; stdout: string };
      return { code: e.code, output: e.stdout };
    }
  };

  it('every command block is run or says why not', () => {
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks)
      if (block.skip !== undefined) expect(block.skip.trim().length, `${block.file}:${block.line}`).toBeGreaterThan(10);
  });

  const name = (b: FencedBlock): string =>
    `${b.file}:${b.line} ${b.body.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#')) ?? ''}`;
  for (const block of blocks) {
    if (block.skip !== undefined) {
      it.skip(`${name(block)} (skipped: ${block.skip})`, () => undefined);
      continue;
    }
    it(name(block), async () => {
      if (block.language === 'console') {
        const steps = consoleSteps(block.body);
        expect(steps.length, 'a console block has `$ ` commands').toBeGreaterThan(0);
        for (const step of steps) {
          const run = await shell(step.command);
          expect(run.code, `${step.command}\n${run.output}`).toBe(0);
          if (!matchesDocumented(step.output, run.output))
            expect(`$ ${step.command}\n${run.output}`).toBe(`$ ${step.command}\n${step.output.join('\n')}`);
        }
      } else {
        const run = await shell(block.body);
        expect(run.code, run.output.slice(-4000)).toBe(0);
      }
      expect(
        git('status', '--porcelain', '--untracked-files=all'),
        'the commands left the repository as they found it',
      ).toBe('');
    });
  }
});
