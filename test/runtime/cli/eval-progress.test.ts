// `ptc eval`'s progress, as `ptc test` has it (issue 28): on a terminal one live line on stderr that names the run
// under way (task · model · mode · sample, the turn) and counts the runs done and failed, erased before each lasting
// line; in a pipe, in CI, under NO_COLOR or TERM=dumb only the plain line per run, with no control sequence at all. A
// real pseudo-terminal from util-linux's `script`; the model is the project's fake model server, the tools the example
// cassettes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeModelServer,
  type FakeModelServer,
  type FakeScript,
} from '../../../examples/models/fake-model-server.mjs';
import { ptcOnTerminal, ptcWith, terminalWorks } from './cli-harness.js';

const ERASE = '\r\u001b[2K';
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;
const KEY = 'sk-eval-progress-0123456789';

let server: FakeModelServer;
beforeAll(async () => {
  const script = JSON.parse(fs.readFileSync('examples/models/fake-model.json', 'utf8')) as FakeScript;
  // each reply takes a moment, so the live line is drawn while a run waits on its model
  for (const rule of script.rules) rule.replies = rule.replies.map((then) => ({ delayMs: 300, then }));
  server = await startFakeModelServer({ script });
});
afterAll(async () => {
  await server.close();
});

const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  OPENAI_API_KEY: KEY,
  CI: '',
  NO_COLOR: '',
  TERM: 'xterm',
  ...extra,
});
const argv = (): string[] => [
  'eval',
  path.resolve('examples/models/tasks.jsonl'),
  '--bindings',
  path.resolve('examples/programs/tools.bindings.mjs'),
  '--replay',
  path.resolve('examples/models/cassettes'),
  '--models',
  `openai:fake-coder@${server.url}/v1`,
  '--modes',
  'code',
];
const RUN_LINE = /^[✓✗] (paris|paris-lyon|bigger|lyon-country) · openai:fake-coder · code · 1( — .*)?$/;

describe('ptc eval progress', { timeout: 300_000 }, () => {
  it('in a pipe: one plain line per run on stderr, no control sequence, the table on stdout', async () => {
    const run = await ptcWith({ env: env() }, ...argv());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stderr).not.toContain('runs ·');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(line).toMatch(RUN_LINE);
    expect(run.stdout).toMatch(/fake-coder/);
  });

  it.runIf(terminalWorks)(
    'on a terminal: a live line naming the run and counting the runs, erased before each lasting line',
    async () => {
      const out = await ptcOnTerminal({ env: env() }, ...argv());
      expect(out).toContain(ERASE);
      expect(out).toMatch(
        /[0-3]\/4 runs(, \d failed)? · \d+\.\d s · (paris|paris-lyon|bigger|lyon-country) · openai:fake-coder · code · 1 · (asking the model|turn \d)/,
      );
      // what stays on the screen: each write after the last erase of its line
      const screen = out
        .split('\n')
        .map((line) => line.replace(/\r$/, ''))
        .map((line) => line.slice(line.lastIndexOf(ERASE) + (line.includes(ERASE) ? ERASE.length : 0)))
        .filter((line) => line !== '');
      expect(screen.filter((line) => RUN_LINE.test(line))).toHaveLength(4);
      expect(screen.some((line) => line.includes('runs ·'))).toBe(false);
      // the line is gone before the table
      const table = out.indexOf('fake-coder', out.lastIndexOf('· code · 1'));
      expect(out.slice(table)).not.toContain('runs ·');
    },
  );

  for (const [name, extra] of [
    ['CI', { CI: 'true' }],
    ['NO_COLOR', { NO_COLOR: '1' }],
    ['TERM=dumb', { TERM: 'dumb' }],
  ] as const)
    it.runIf(terminalWorks)(`on a terminal with ${name}: the plain lines only`, async () => {
      const out = await ptcOnTerminal({ env: env(extra) }, ...argv());
      expect(out).not.toContain('\u001b');
      expect(out).not.toContain('runs ·');
      expect(
        out
          .replace(/\r\n/g, '\n')
          .split('\n')
          .filter((line) => RUN_LINE.test(line)),
      ).toHaveLength(4);
    });
});
