// `ptc test`'s progress (issue 28.6): on a terminal one live line that rewrites itself with the cells done, failed and
// running; in a pipe, in CI (`CI` set), under NO_COLOR or TERM=dumb only the plain line per notebook, with no control
// sequence at all. The terminal is a real pseudo-terminal from util-linux's `script`.
import { describe, expect, it } from 'vitest';
import { ptcOnTerminal, ptcWith, scratchDir, terminalWorks } from './cli-harness.js';

const ERASE = '\r\u001b[2K';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

const notebook = (prefix: string, values: number[]): string =>
  `${JSON.stringify({
    version: 1,
    metadata: {},
    cells: values.map((v, i) => ({
      kind: 'code',
      language: 'typescript',
      source: `return ${v};`,
      metadata: { id: `${prefix}${i}`, expect: { value: { match: 'exact', is: 1 } } },
    })),
  })}\n`;

// `ptc test` under a pseudo-terminal: what the terminal received
const onTerminal = (cwd: string, env: NodeJS.ProcessEnv, ...argv: string[]): Promise<string> =>
  ptcOnTerminal({ cwd, env }, 'test', ...argv);
const scriptWorks = terminalWorks;

describe('ptc test progress', { timeout: 300_000 }, () => {
  const scratch = scratchDir('ptc-progress-');
  scratch.write('a.ptcnb', notebook('a', [1, 1]));
  scratch.write('b.ptcnb', notebook('b', [1, 2, 1]));
  const plain = { ...process.env, CI: '', NO_COLOR: '', TERM: 'xterm' };

  it('in a pipe: one plain line per notebook in order and the summary, no control sequence', async () => {
    const run = await ptcWith({ env: plain, cwd: scratch.dir }, 'test', 'a.ptcnb', 'b.ptcnb');
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(CONTROL);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^✓ a\.ptcnb {2}2 passed {2}\(\d+\.\d s\)$/);
    expect(lines[1]).toMatch(/^✗ b\.ptcnb {2}2 passed, 1 failed {2}\(\d+\.\d s\)$/);
    expect(lines.at(-1)).toBe('4 passed, 1 failed');
  });

  it.runIf(scriptWorks)('on a terminal: a live line counting the cells, erased before each lasting line', async () => {
    const out = await onTerminal(scratch.dir, plain, 'a.ptcnb', 'b.ptcnb');
    expect(out).toContain(ERASE);
    expect(out).toMatch(/\d\/5 cells(, 1 failed)? · \d running · \d+\.\d s · [ab]\.ptcnb cell \d/);
    expect(out).toMatch(/5\/5 cells, 1 failed/);
    // what stays on the screen: each write after the last erase of its line
    const screen = out
      .split('\n')
      .map((line) => line.replace(/\r$/, ''))
      .map((line) => line.slice(line.lastIndexOf(ERASE) + (line.includes(ERASE) ? ERASE.length : 0)))
      .filter((line) => line !== '');
    expect(screen.some((l) => /^✓ a\.ptcnb {2}2 passed/.test(l))).toBe(true);
    expect(screen.at(-1)).toBe('4 passed, 1 failed');
    // the line is gone once the summary is out
    expect(out.slice(out.lastIndexOf('4 passed, 1 failed'))).not.toContain('cells ·');
  });

  for (const [name, env] of [
    ['CI', { CI: 'true' }],
    ['NO_COLOR', { NO_COLOR: '1' }],
    ['TERM=dumb', { TERM: 'dumb' }],
  ] as const)
    it.runIf(scriptWorks)(`on a terminal with ${name}: the plain lines only`, async () => {
      const out = await onTerminal(scratch.dir, { ...plain, ...env }, 'a.ptcnb');
      expect(out).not.toContain('\u001b');
      expect(out).not.toContain('cells ·');
      expect(out.replace(/\r\n/g, '\n').trimEnd().split('\n').at(-1)).toBe('2 passed, 0 failed');
    });
});
