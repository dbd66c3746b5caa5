// A `ptc` command left waiting on something that can no longer happen must not read as a success that printed nothing
// (Node ends a process whose loop is empty with exit code 0): it says so and exits 3. The stall is made for real, in
// the real CLI: a preload makes the notebook's read a promise that never settles, with nothing else in the loop.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ptcWith, scratchDir } from './cli-harness.js';

describe('ptc when its loop drains before the command finished', () => {
  const scratch = scratchDir('ptc-loop-drained-');
  const preload = scratch.write(
    'stall.mjs',
    [
      "import fsp from 'node:fs/promises';",
      'const read = fsp.readFile;',
      "fsp.readFile = (file, ...rest) => (String(file).endsWith('.ptcnb') ? new Promise(() => {}) : read(file, ...rest));",
    ].join('\n'),
  );
  const notebook = path.resolve('examples/tour.ptcnb');

  test('control: without the stall the same command runs the notebook', async () => {
    expect(fs.existsSync(notebook)).toBe(true);
    const run = await ptcWith({ env: { ...process.env, NODE_OPTIONS: '' } }, 'notebook', notebook, '--json');
    expect(run.stdout.length, run.stderr).toBeGreaterThan(0);
  });

  test('exit 3 with an internal error that says the command was still waiting', async () => {
    const run = await ptcWith({ env: { ...process.env, NODE_OPTIONS: `--import ${preload}` } }, 'notebook', notebook);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'ptc: internal error: the command was still waiting when nothing was left that could finish it\n',
    );
    expect(run.stdout).toBe('');
  });
});
