import { afterAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import type { BindingNamespace, CodeRunRequest } from '../../../runtime/api.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { quickjsProbeProgram } from '../../../runtime/wasm/quickjs/quickjs-engine.js';
import { judgeWasmProbe } from '../../../runtime/wasm/wasm-proof.js';

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
  const result = await runtime.run(
    runtime.resolve({ language: 'typescript', program, engine: 'wasm', bindings: [tools], timeoutMs: 5_000, ...extra }),
  );
  expect(RunResultSchema.safeParse(result).success).toBe(true);
  return result;
}

describe('quickjs engine: runs', () => {
  test('a typed program returns its value, prints through the ledger and names the engine', async () => {
    const result = await run(
      `const n: number = 2;\nconsole.log('hi', { a: n }, [1, 'x']);\nconsole.error('bad');\nreturn { sum: n + 40 };`,
    );
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({ sum: 42 });
    expect(result.logs).toEqual(["hi { a: 2 } [ 1, 'x' ]", 'bad']);
    expect(result.stderrLogs).toEqual([1]);
    expect(result.sandbox.engine).toBe('quickjs');
    expect(result.sandbox.isolation).toBe('wasm');
    expect(result.sandbox.enforcement).toBe('full');
    // defence in depth: on this Linux host the engine's child is still under bubblewrap
    expect(result.sandbox.mechanisms.some((m) => m.startsWith('bubblewrap'))).toBe(true);
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
    expect(lossy.error).toEqual({
      kind: 'invalid-output',
      message: 'program completion must be lossless JSON: $.n is NaN',
    });
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
    const result = await run('while (true) {}', { timeoutMs: 300 });
    expect(result.error).toEqual({ kind: 'timeout', message: 'execution deadline reached (300ms)' });
    // counted from the hand-over, not the start: a loaded machine stretches the engine's start-up (issue 33)
    expect(result.durationMs - (result.startupMs ?? 0)).toBeLessThan(5_000);
  });

  test('memory exhaustion ends as an exception naming the limit', async () => {
    // QuickJS's allocator slows down as the heap nears its limit: the smallest limit keeps this test short
    const result = await run('const a = [];\nwhile (true) a.push({ a: 1, b: [1, 2, 3] });', {
      memoryMb: 16,
      timeoutMs: 20_000,
    });
    // ends as an exception long before the deadline; QuickJS, out of memory, throws what it could still allocate
    // (often `null`), so the message names the limit only when the heap is still full when the run settles
    expect(result.error?.kind).toBe('exception');
    // the control: a bounded program under the same limit
    expect(
      (
        await run('const a = [];\nfor (let i = 0; i < 1000; i++) a.push({ a: 1, b: [1, 2, 3] });\nreturn a.length;', {
          memoryMb: 16,
        })
      ).value,
    ).toBe(1000);
  }, 60_000);

  test('stack exhaustion ends as an exception', async () => {
    const result = await run('function f(n: number): number { return f(n + 1) + 1; }\nreturn f(0);');
    expect(result.error?.kind).toBe('exception');
    expect(result.error?.message).toContain('stack overflow');
  });

  test('the output cap', async () => {
    const result = await run(`for (let i = 0; i < 100000; i++) console.log('x'.repeat(100));`, {
      maxOutputBytes: 65_536,
    });
    expect(result.error?.kind).toBe('output-limit');
  });

  test('pending calls are bounded and the rest wait', async () => {
    const result = await run(
      `return (await Promise.all(Array.from({ length: 20 }, (_, i) => tools.slow({ i })))).length;`,
      { maxPendingCalls: 2 },
    );
    expect(result.value).toBe(20);
  });

  test('the call budget', async () => {
    const result = await run(`for (let i = 0; i < 5; i++) await tools.echo({ i });`, { maxCalls: 2 });
    expect(result.error?.kind).toBe('call-limit');
  });
});

describe('engine choice', () => {
  test('auto runs the native engine where the OS sandbox proved itself, and quickjs (with one notice) where not', async () => {
    const native = await runtime.run(runtime.resolve({ language: 'typescript', program: 'return 1;', engine: 'auto' }));
    expect(native.sandbox).toMatchObject({ engine: 'node', isolation: 'os', enforcement: 'full' });
    expect(native.sandbox.notice).toBeUndefined();
    const bare = createRuntime({ bubblewrapPath: null });
    try {
      const result = await bare.run(bare.resolve({ language: 'typescript', program: 'return 1;', engine: 'auto' }));
      expect(result.value).toBe(1);
      expect(result.sandbox).toMatchObject({ engine: 'quickjs', isolation: 'wasm', enforcement: 'full' });
      expect(result.sandbox.notice).toMatch(
        /OS sandbox is not available here \(bubblewrap turned off.*quickjs WebAssembly engine.*install bubblewrap/,
      );
      // the control: native asked for, the same host runs Node with what is left of the OS layers
      const forced = await bare.run(bare.resolve({ language: 'typescript', program: 'return 1;', engine: 'native' }));
      expect(forced.sandbox).toMatchObject({ engine: 'node', enforcement: 'partial' });
      // sandbox: required is met by the wasm engine, where the native engine refuses
      const required = await bare.run(
        bare.resolve({ language: 'typescript', program: 'return 2;', engine: 'wasm', sandbox: 'required' }),
      );
      expect(required.value).toBe(2);
      const refused = await bare.run(
        bare.resolve({ language: 'typescript', program: 'return 2;', engine: 'native', sandbox: 'required' }),
      );
      expect(refused.error?.kind).toBe('sandbox-unavailable');
    } finally {
      await bare.dispose();
    }
  });

  test('the runtime default stays native', async () => {
    const plain = await runtime.run(runtime.resolve({ language: 'typescript', program: 'return 1;' }));
    expect(plain.sandbox.engine).toBe('node');
    expect(() => runtime.resolve({ language: 'typescript', program: '', engine: 'fast' as never })).toThrow(/engine/);
  });
});

describe('quickjs engine: attacks on the embedding', () => {
  // each attack with its control: the same reach on the native engine (sandbox off) succeeds, so the refusal is real
  async function both(program: string): Promise<{ wasm: RunResult; native: RunResult }> {
    const [wasm, native] = await Promise.all([run(program), run(program, { engine: 'native', sandbox: 'off' })]);
    return { wasm, native };
  }

  test('globalThis, process, require and import() reach nothing of the host', async () => {
    const program = `
const g: any = globalThis;
const seen: Record<string, string> = {};
seen.process = typeof g.process;
seen.require = typeof g.require;
seen.viaFunction = typeof Function('return typeof process === "object" ? process : undefined')();
seen.viaConstructor = typeof (console.log as any).constructor('return typeof process === "object" ? process : undefined')();
// an async function's constructor makes async functions: awaited, it answers from the guest realm too
seen.viaBinding = typeof (await (tools.echo as any).constructor('return typeof process === "object" ? process : undefined')());
try { await import('node:child_process'); seen.imported = 'yes'; } catch { seen.imported = 'no'; }
return seen;`;
    const { wasm, native } = await both(program);
    expect(wasm.value).toEqual({
      process: 'undefined',
      require: 'undefined',
      viaFunction: 'undefined',
      viaConstructor: 'undefined',
      viaBinding: 'undefined',
      imported: 'no',
    });
    expect(native.value).toMatchObject({ process: 'object', viaFunction: 'object', imported: 'yes' });
  });

  test('WebAssembly host functions: there is no WebAssembly inside the guest', async () => {
    const program = `return typeof (globalThis as any).WebAssembly;`;
    const { wasm, native } = await both(program);
    expect(wasm.value).toBe('undefined');
    expect(native.value).toBe('object');
  });

  test('SharedArrayBuffer and Atomics stay inside the guest heap', async () => {
    const program = `
const g: any = globalThis;
if (typeof g.SharedArrayBuffer !== 'function' || typeof g.Atomics !== 'object') return 'absent';
const shared = new Int32Array(new g.SharedArrayBuffer(8));
g.Atomics.store(shared, 0, 7);
let waited = 'n/a';
try { waited = g.Atomics.wait(shared, 0, 7, 10); } catch (e) { waited = 'refused'; }
return { value: g.Atomics.load(shared, 0), waited };`;
    const { wasm, native } = await both(program);
    // QuickJS built without threads has no SharedArrayBuffer or Atomics: nothing can be shared with the host
    expect(wasm.value).toBe('absent');
    // the control: Node has both (a 10 ms wait on an unchanged value times out)
    expect(native.value).toEqual({ value: 7, waited: 'timed-out' });
  });

  test('prototype pollution across the bridge reaches neither the host nor the binding arguments', async () => {
    const program = `
(Object.prototype as any).polluted = 'yes';
(Array.prototype as any).extra = 'yes';
(Object.prototype as any).toJSON = function () { return 'hijacked'; };
const echoed = await tools.echo({ a: [1, 2] });
return { keys: Object.keys(echoed), a: echoed.a.length };`;
    const result = await run(program);
    expect(result.calls[0]?.args).toEqual({ a: [1, 2] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result.error === undefined || result.error.kind === 'invalid-output').toBe(true);
  });

  test('a rebuilt Promise.prototype.then does not hijack settlement', async () => {
    const result = await run(
      `Promise.prototype.then = function () { return 'hijacked' as any; };\nreturn await tools.echo({ v: 3 });`,
    );
    expect(result.value).toEqual({ v: 3 });
  });
});

describe('quickjs engine: the isolation proof', () => {
  test('the probe program, run natively without a sandbox (the control), finds ways out and the verdict names one', async () => {
    const program = quickjsProbeProgram('/etc/hostname');
    const native = await run(program, { engine: 'native', sandbox: 'off', bindings: [] });
    const verdict = judgeWasmProbe(native.value, native.error?.message);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? '' : verdict.problem).toMatch(/was not refused/);
    const inside = await run(program, { bindings: [] });
    expect(judgeWasmProbe(inside.value, inside.error?.message)).toEqual({ ok: true });
  });

  test('a verdict needs every class tried and refused', () => {
    expect(judgeWasmProbe({ refused: { 'read-outside:a': true } }, undefined)).toEqual({
      ok: false,
      problem: 'the probe did not try write-outside, network, spawn, host-object',
    });
    expect(judgeWasmProbe(undefined, 'boom')).toEqual({ ok: false, problem: 'the probe program failed: boom' });
  });
});

describe('quickjs engine: binding failures', () => {
  test('an uncaught binding failure names the error class at the program line of the call', async () => {
    const result = await run(`const a = 1;\nawait tools.fail({});`);
    expect(result.error?.kind).toBe('exception');
    expect(result.error?.message).toMatch(/^ToolError: no such city/);
    expect(result.error?.location?.line).toBe(2);
  });
});

describe('quickjs engine: failures read as the native engine writes them', () => {
  // expectations compare a failure's message exactly, so the same program must fail with the same text and location
  // on either engine: V8's callee columns, bare top-level frames, `at async` frames placed at their `await`
  const programs = {
    'a throw at the top level': `const pad = 0;\nthrow new Error('top');`,
    'a throw inside a called function': `const x = await Promise.resolve(1);\nfunction inner(n: number) { throw new Error('inner ' + n); }\ninner(x);`,
    // (a method's frame is the one difference left: V8 names it by its receiver's type, `Object.f`; QuickJS `f`)
    'a constructor called from a function': `function make() { return new  Boom(); }\nfunction Boom() { throw new Error('boom'); }\nmake();`,
    'an awaited binding failure': `const a = await tools.echo({ x: 1 });\nconst b = await tools.fail({ name: 'Atlantis' });`,
    'a failure inside Promise.all': `const r = await Promise.all([tools.echo({}), tools.fail({})]);`,
    'a failure awaited through a function': `async function get(name: string) {\n  return await tools.fail({ name });\n}\nawait get('Atlantis');`,
    'a failure awaited across lines': `const all = await Promise.all([\n  tools.echo({}),\n  tools.fail({}),\n]);`,
  };
  for (const [title, program] of Object.entries(programs))
    test(title, async () => {
      const [native, wasm] = await Promise.all([run(program, { engine: 'native' }), run(program)]);
      expect(native.sandbox.engine).toBe('node');
      expect(wasm.sandbox.engine).toBe('quickjs');
      expect(native.error?.kind).toBe('exception');
      expect({ message: wasm.error?.message, location: wasm.error?.location }).toEqual({
        message: native.error?.message,
        location: native.error?.location,
      });
    });
});
