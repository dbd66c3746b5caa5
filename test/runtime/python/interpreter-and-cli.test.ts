import fs from 'node:fs';
import { describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import { ptc, scratchDir } from '../cli/cli-harness.js';

const scratch = scratchDir('ptc-pyexe-');

// A fake interpreter that answers the identity probe like the given implementation and version.
const fakePython = (name: string, impl: string, version: number[]): string => {
  const file = scratch.write(
    name,
    `#!/bin/sh\necho '{"impl": "${impl}", "version": ${JSON.stringify(version)}, "executable": ""}'\n`,
  );
  fs.chmodSync(file, 0o755);
  return file;
};

async function runWith(pythonPath: string) {
  const runtime = createRuntime({ pythonPath });
  try {
    return await runtime.run(runtime.resolve({ language: 'python', program: 'return 1' }));
  } finally {
    await runtime.dispose();
  }
}

describe.concurrent('Python interpreter resolution', () => {
  test.each([
    ['a missing interpreter', () => '/nonexistent/python3', /not found or not executable: \/nonexistent\/python3/],
    ['a directory', () => scratch.dir, /not found or not executable/],
    [
      'CPython 3.9',
      () => fakePython('python39', 'cpython', [3, 9, 18]),
      /is CPython 3\.9\.18; PTC Playground needs CPython 3\.10 or newer/,
    ],
    ['PyPy', () => fakePython('pypy3', 'pypy', [3, 10, 13]), /is pypy 3\.10\.13; PTC Playground needs CPython/],
    ['something that is not Python', () => '/bin/true', /did not answer as a Python interpreter/],
  ])('%s is a clear worker-exit before anything runs', async (_name, pythonPath, message) => {
    const r = await runWith(pythonPath());
    expect(r.error?.kind).toBe('worker-exit');
    expect(r.error?.message).toMatch(message);
    expect(r.calls).toEqual([]);
  });
});

describe('ptc run with a Python program', () => {
  test('runs examples/programs/cities.py with the example bindings and prints one RunResult', async () => {
    const out = await ptc(
      'run',
      'examples/programs/cities.py',
      '--bindings',
      'examples/programs/tools.bindings.mjs',
      '--json',
    );
    expect(out.code).toBe(0);
    const result = JSON.parse(out.stdout) as { language: string; value: unknown; logs: string[]; calls: unknown[] };
    expect(result.language).toBe('python');
    expect(result.value).toEqual({ total: 6_380_151, largest: 'Berlin' });
    expect(result.logs).toEqual(['skipped Atlantis: no such city: Atlantis', 'found 3 of 4 cities']);
    expect(result.calls).toHaveLength(4);
  });

  test('a failing Python program exits 1 with its traceback; limit flags reach the runner', async () => {
    const file = scratch.write('spin.py', "print('spinning')\nwhile True:\n    pass\n");
    const out = await ptc(
      'run',
      file,
      '--timeout-ms',
      '1000',
      '--max-output-bytes',
      '4096',
      '--memory-mb',
      '256',
      '--sandbox',
      'off',
      '--json',
    );
    expect(out.code).toBe(1);
    const result = JSON.parse(out.stdout) as {
      error: { kind: string; message: string };
      logs: string[];
      sandbox: { enforcement: string };
    };
    expect(result.error).toEqual({ kind: 'timeout', message: 'execution deadline reached (1000ms)' });
    expect(result.logs).toEqual(['spinning']);
    expect(result.sandbox.enforcement).toBe('none');
  });
});
