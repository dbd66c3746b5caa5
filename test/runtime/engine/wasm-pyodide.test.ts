import { afterAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import type { BindingNamespace, CodeRunRequest } from '../../../runtime/api.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { pyodideProbeProgram } from '../../../runtime/wasm/pyodide/pyodide-engine.js';
import { judgeWasmProbe } from '../../../runtime/wasm/wasm-proof.js';

// The pyodide engine with real child processes: the Python program runs inside Pyodide (CPython compiled to
// WebAssembly) in a Node child of its own, under bubblewrap where this host has it. Loading an interpreter takes
// seconds on a loaded machine: timeouts are generous, and spares keep one loaded ahead of the next run.
const runtime = createRuntime({ spares: 1 });
afterAll(() => runtime.dispose());

const tools: BindingNamespace = {
  global: 'tools',
  functions: {
    echo: async (args) => args,
    fail: async () => {
      throw Object.assign(new Error('no such city'), { code: 404, data: { city: 'Atlantis' } });
    },
    slow: async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return args;
    },
  },
  errorClass: { name: 'ToolError', memberNameProperty: 'tool' },
};

async function run(program: string, extra: Partial<CodeRunRequest> = {}): Promise<RunResult> {
  const result = await runtime.run(
    runtime.resolve({ language: 'python', program, engine: 'wasm', bindings: [tools], timeoutMs: 120_000, ...extra }),
  );
  expect(RunResultSchema.safeParse(result).success).toBe(true);
  return result;
}

describe('pyodide engine: runs', () => {
  test('a program returns its value, prints through the ledger and names the engine', async () => {
    const result = await run(
      `n = 2\nprint("hi", {"a": n}, [1, "x"])\nimport sys\nprint("bad", file=sys.stderr)\nreturn {"sum": n + 40}`,
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ sum: 42 });
    expect(result.logs).toEqual(["hi {'a': 2} [1, 'x']", 'bad']);
    expect(result.stderrLogs).toEqual([1]);
    expect(result.sandbox.engine).toBe('pyodide');
    expect(result.sandbox.isolation).toBe('wasm');
    expect(result.sandbox.missing).toBeUndefined();
    expect(result.sandbox.enforcement).toBe('full');
    expect(result.sandbox.mechanisms.some((m) => m.startsWith('bubblewrap'))).toBe(true);
  }, 300_000);
});

describe('pyodide engine: the isolation proof', () => {
  test('the probe program, run natively without a sandbox (the control), finds ways out; inside pyodide none', async () => {
    const program = pyodideProbeProgram('/etc/hostname');
    const [native, inside] = await Promise.all([
      run(program, { engine: 'native', sandbox: 'off', bindings: [] }),
      run(program, { bindings: [] }),
    ]);
    const verdict = judgeWasmProbe(native.value, native.error?.message);
    expect(verdict.ok ? '' : verdict.problem).toMatch(/was not refused/);
    expect(inside.error).toBeUndefined();
    expect(inside.value).toEqual({ refused: expect.any(Object) });
    expect(judgeWasmProbe(inside.value, inside.error?.message)).toEqual({ ok: true });
  }, 300_000);
});
