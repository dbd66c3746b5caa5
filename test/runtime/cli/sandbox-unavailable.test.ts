// A host without the OS sandbox, made on one that has it (issue 28.3, 26): PTC_BWRAP names a bubblewrap that is not
// there, so the sandbox probe fails exactly as where bubblewrap is missing. `--sandbox required` is then met by a
// language's WebAssembly engine (quickjs for TypeScript; pyodide for Python once it exists) and otherwise refused in
// one line with exit 2, never one failure block per cell.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { ptcWith, scratchDir } from './cli-harness.js';

const MISSING = '/nonexistent/ptc-test-bwrap';
const env = { ...process.env, PTC_BWRAP: MISSING };
const NOT_FOUND = `bubblewrap (bwrap) not found at ${MISSING}`;

const notebook = (cells: { id: string; language: 'typescript' | 'python'; source: string }[]): string =>
  `${JSON.stringify(
    {
      version: 1,
      metadata: {},
      cells: cells.map((c) => ({
        kind: 'code',
        language: c.language,
        source: c.source,
        metadata: { id: c.id, expect: { value: { match: 'exact', is: 2 } } },
      })),
    },
    null,
    2,
  )}\n`;

describe('the OS sandbox made unavailable with PTC_BWRAP', { timeout: 300_000 }, () => {
  const scratch = scratchDir('ptc-no-sandbox-');
  const ts = scratch.write('two.ts', 'return 1 + 1;');
  const py = scratch.write('two.py', 'return 1 + 1');

  // whether this build has a WebAssembly engine for Python: asked of the build itself, so the test follows it
  const pythonWasm = async (): Promise<boolean> => {
    const run = await ptcWith({ env }, 'run', py, '--engine', 'wasm', '--json');
    const result = JSON.parse(run.stdout) as RunResult;
    if (result.error?.kind === 'sandbox-unavailable' && /no WebAssembly engine runs python/.test(result.error.message))
      return false;
    expect(result.error, run.stdout).toBeUndefined();
    return true;
  };

  it('the probe fails as for a missing bubblewrap: best-effort names it, TypeScript moves to quickjs', async () => {
    const run = await ptcWith({ env }, 'run', ts, '--json');
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as RunResult;
    expect(result.value).toBe(2);
    expect(result.sandbox).toMatchObject({ engine: 'quickjs', enforcement: 'full' });
    expect(result.sandbox.notice).toContain(NOT_FOUND);
    const pyRun = await ptcWith({ env }, 'run', py, '--json', '--engine', 'native');
    const pyResult = JSON.parse(pyRun.stdout) as RunResult;
    expect(pyResult.value).toBe(2);
    expect(pyResult.sandbox.enforcement).toBe('partial');
    expect(pyResult.sandbox.missing?.join('\n')).toContain(NOT_FOUND);
  });

  it('ptc run --sandbox required: TypeScript runs in quickjs; Python runs in pyodide or is refused in one line', async () => {
    const tsRun = await ptcWith({ env }, 'run', ts, '--sandbox', 'required');
    expect(tsRun.code, tsRun.stderr).toBe(0);
    expect(tsRun.stdout).toContain('quickjs engine (WebAssembly)');
    const pyRun = await ptcWith({ env }, 'run', py, '--sandbox', 'required');
    if (await pythonWasm()) {
      expect(pyRun.code, pyRun.stderr).toBe(0);
      return;
    }
    expect(pyRun.code).toBe(2);
    expect(pyRun.stdout).toBe('');
    const lines = pyRun.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(
      `ptc run: python: sandbox required but unavailable here: OS sandbox: ${NOT_FOUND}: install the "bubblewrap" package (Debian/Ubuntu/Fedora/Arch: bubblewrap)`,
    );
    // --json still hands a reader the result, with the same exit code
    const json = await ptcWith({ env }, 'run', py, '--sandbox', 'required', '--json');
    expect(json.code).toBe(2);
    expect((JSON.parse(json.stdout) as RunResult).error?.kind).toBe('sandbox-unavailable');
  });

  it('ptc test --sandbox required: TypeScript cells pass in quickjs; Python cells pass in pyodide or stop the suite in one line', async () => {
    scratch.write(
      'ts.ptcnb',
      notebook([1, 2, 3].map((i) => ({ id: `t${i}`, language: 'typescript', source: 'return 1 + 1;' }))),
    );
    const tsRun = await ptcWith({ env, cwd: scratch.dir }, 'test', 'ts.ptcnb', '--sandbox', 'required');
    expect(tsRun.code, tsRun.stdout + tsRun.stderr).toBe(0);
    expect(tsRun.stdout.trimEnd().split('\n').at(-1)).toBe('3 passed, 0 failed');

    scratch.write(
      'mixed.ptcnb',
      notebook([
        { id: 'm1', language: 'python', source: 'return 1 + 1' },
        { id: 'm2', language: 'typescript', source: 'return 1 + 1;' },
        { id: 'm3', language: 'python', source: 'return 1 + 1' },
      ]),
    );
    const mixed = await ptcWith({ env, cwd: scratch.dir }, 'test', 'mixed.ptcnb', '--sandbox', 'required');
    if (await pythonWasm()) {
      expect(mixed.code, mixed.stdout + mixed.stderr).toBe(0);
      return;
    }
    expect(mixed.code).toBe(2);
    expect(mixed.stdout).toBe('');
    const lines = mixed.stderr.trimEnd().split('\n');
    expect(lines, mixed.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^ptc test: python: sandbox required but unavailable here: OS sandbox: /);
    expect(lines[0]).toContain(NOT_FOUND);
  });
});
