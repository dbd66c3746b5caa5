import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Language } from '../../../runtime/protocol/run-result.js';
import { ptcWith, scratchDir } from '../cli/cli-harness.js';
import { run } from '../../helpers/runtime.js';

const LANGUAGES: Language[] = ['typescript', 'python'];
const { dir, write } = scratchDir('ptc-environment-');
const notADirectory = write('not-a-directory', '');
const PROBLEM =
  /^the temporary directory ".*not-a-directory" \(TMPDIR\) is not a writable directory \(ENOTDIR\); point TMPDIR at one$/;

// A TMPDIR naming a file is a misconfigured host: the API answers worker-exit, the CLI one line and exit 2.
// Its own file, run in sequence: TMPDIR is process-wide, so no other test may run while it is changed.
describe('a TMPDIR that is not a writable directory', () => {
  const saved = process.env.TMPDIR;
  beforeAll(() => {
    process.env.TMPDIR = notADirectory;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });

  test.each(LANGUAGES)(
    'createRuntime().run (%s) is worker-exit naming TMPDIR, before any process starts',
    async (language) => {
      const r = await run(language, 'return 1');
      expect(r.error?.kind).toBe('worker-exit');
      expect(r.error?.message).toMatch(PROBLEM);
    },
  );

  test.each([
    ['typescript', 'ok.ts', 'return 1;'],
    ['python', 'ok.py', 'return 1'],
  ])('ptc run (%s) prints one line and exits 2', async (_language, name, source) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, source);
    const r = await ptcWith({ env: { ...process.env, TMPDIR: notADirectory } }, 'run', file, '--json');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd().replace(/^ptc run: /, '')).toMatch(PROBLEM);
  });

  test('ptc notebook prints one line and exits 2', async () => {
    const notebook = write(
      'one.ptcnb',
      JSON.stringify({ version: 1, cells: [{ kind: 'code', language: 'python', source: 'return 1' }] }),
    );
    const r = await ptcWith({ env: { ...process.env, TMPDIR: notADirectory } }, 'notebook', notebook);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^ptc notebook: the temporary directory/);
  });
});
