import { afterAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import type { BindingNamespace, CodeRunRequest } from '../../../runtime/api.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';

// The quickjs engine with real child processes: the program runs inside QuickJS (WebAssembly) in a Node child of its
// own, under bubblewrap where this host has it.
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
  const result = await runtime.run(runtime.resolve({ language: 'typescript', program, engine: 'wasm', bindings: [tools], timeoutMs: 5_000, ...extra }));
  expect(RunResultSchema.safeParse(result).success).toBe(true);
  return result;
}

describe('quickjs engine: runs', () => {
  test('a typed program returns its value, prints through the ledger and names the engine', async () => {
    const result = await run(`const n: number = 2;\nconsole.log('hi', { a: n }, [1, 'x']);\nconsole.error('bad');\nreturn { sum: n + 40 };`);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ sum: 42 });
    expect(result.logs).toEqual(["hi { a: 2 } [ 1, 'x' ]", 'bad']);
    expect(result.stderrLogs).toEqual([1]);
    expect(result.sandbox.engine).toBe('quickjs');
    expect(result.sandbox.isolation).toBe('wasm');
    expect(result.sandbox.enforcement).toBe('full');
  });

  test('bindings are async functions over the bridge, failures are the namespace error class', async () => {
    const result = await run(`
const a = await tools.echo({ x: 1 });
const all = await Promise.all([1, 2, 3].map((i) => tools.slow({ i })));
let caught;
try { await tools.fail({}); } catch (e) { caught = { isClass: e instanceof ToolError, name: e.name, tool: e.tool, message: e.message }; }
return { a, all, caught };`);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      a: { x: 1 },
      all: [{ i: 1 }, { i: 2 }, { i: 3 }],
      caught: { isClass: true, name: 'ToolError', tool: 'fail', message: 'no such city' },
    });
    expect(result.calls.map((c) => c.name)).toEqual(['echo', 'slow', 'slow', 'slow', 'fail']);
  });

  test('timers and lossy arguments', async () => {
    const result = await run(`
await new Promise((r) => setTimeout(r, 10));
try { await tools.echo({ f: undefined }); } catch (e) { return e.message; }`);
    expect(result.value).toBe('arguments to tools.echo must be lossless JSON: $.f is undefined');
  });

  test('undefined completion, lossy completion', async () => {
    expect((await run('console.log(1)')).value).toBeUndefined();
    const lossy = await run('return { n: NaN };');
    expect(lossy.error).toEqual({ kind: 'invalid-output', message: 'program completion must be lossless JSON: $.n is NaN' });
  });
});

describe('quickjs engine: failure kinds', () => {
  test('an exception names its line and column in the cell', async () => {
    const result = await run(`const a = 1;\nconst b: string = 'x';\nnull.boom;`);
    expect(result.error?.kind).toBe('exception');
    expect(result.error?.message).toMatch(/^TypeError: cannot read property 'boom' of null/);
    expect(result.error?.location).toEqual({ line: 3, column: expect.any(Number) });
  });

  test('a syntax error is an exception with its line', async () => {
    const result = await run(`const a = 1;\nconst = ;`);
    expect(result.error?.kind).toBe('exception');
    expect(result.error?.location?.line).toBe(2);
  });

  test('a thrown non-error', async () => {
    const result = await run(`throw 'plain';`);
    expect(result.error).toEqual({ kind: 'exception', message: 'Uncaught plain' });
  });

  test('Node built-ins fail as an exception naming the engine', async () => {
    const viaRequire = await run(`require('fs');`);
    expect(viaRequire.error?.kind).toBe('exception');
    expect(viaRequire.error?.message).toContain('quickjs engine');
    const viaImport = await run(`await import('node:fs');`);
    expect(viaImport.error?.kind).toBe('exception');
    expect(viaImport.error?.message).toContain('not available in the quickjs engine');
  });

  test('the deadline fires inside a tight loop', async () => {
    const started = performance.now();
    const result = await run('while (true) {}', { timeoutMs: 300 });
    expect(result.error).toEqual({ kind: 'timeout', message: 'execution deadline reached (300ms)' });
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  test('memory exhaustion ends as an exception naming the limit', async () => {
    // QuickJS's allocator slows down as the heap nears its limit: the smallest limit keeps this test short
    const result = await run('const a = [];\nwhile (true) a.push({ a: 1, b: [1, 2, 3] });', { memoryMb: 16, timeoutMs: 20_000 });
    // ends as an exception long before the deadline; QuickJS, out of memory, throws what it could still allocate
    // (often `null`), so the message names the limit only when the heap is still full when the run settles
    expect(result.error?.kind).toBe('exception');
    expect(result.durationMs).toBeLessThan(20_000);
    // the control: a bounded program under the same limit
    expect((await run('const a = [];\nfor (let i = 0; i < 1000; i++) a.push({ a: 1, b: [1, 2, 3] });\nreturn a.length;', { memoryMb: 16 })).value).toBe(1000);
  }, 60_000);

  test('stack exhaustion ends as an exception', async () => {
    const result = await run('function f(n: number): number { return f(n + 1) + 1; }\nreturn f(0);');
    expect(result.error?.kind).toBe('exception');
    expect(result.error?.message).toContain('stack overflow');
  });

  test('the output cap', async () => {
    const result = await run(`for (let i = 0; i < 100000; i++) console.log('x'.repeat(100));`, { maxOutputBytes: 65_536 });
    expect(result.error?.kind).toBe('output-limit');
  });

  test('pending calls are bounded and the rest wait', async () => {
    const result = await run(`return (await Promise.all(Array.from({ length: 20 }, (_, i) => tools.slow({ i })))).length;`, { maxPendingCalls: 2 });
    expect(result.value).toBe(20);
  });

  test('the call budget', async () => {
    const result = await run(`for (let i = 0; i < 5; i++) await tools.echo({ i });`, { maxCalls: 2 });
    expect(result.error?.kind).toBe('call-limit');
  });
});
