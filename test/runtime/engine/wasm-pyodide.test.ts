import fs from 'node:fs';
import path from 'node:path';
import { loadPyodide } from 'pyodide';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import { loadGuest, type GuestStep } from '../../../runtime/wasm/pyodide/guest.js';
import { guestModules } from '../../helpers/pyodide-guest.js';
import { pyodideFolder } from '../../../runtime/wasm/pyodide/pyodide-engine.js';
import type { BindingNamespace, CodeRunRequest } from '../../../runtime/api.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { pyodideProbeProgram } from '../../../runtime/wasm/pyodide/pyodide-engine.js';
import { judgeWasmProbe } from '../../../runtime/wasm/wasm-proof.js';

// The pyodide engine with real child processes: the Python program runs inside Pyodide (CPython compiled to
// WebAssembly) in a Node child of its own, under bubblewrap where this host has it. Loading an interpreter takes
// seconds on a loaded machine: timeouts are generous, runs go one at a time (each child loads its own interpreter, and
// a child has LIMITS.startupMs to say ready), and a spare keeps one loaded ahead of the next run.
const runtime = createRuntime({ spares: 1 });
afterAll(() => runtime.dispose());
// the engine's proof and a first spare, loaded before the first run (a child has LIMITS.startupMs to say ready)
beforeAll(async () => {
  await runtime.warm(runtime.resolve({ language: 'python', program: '', engine: 'wasm', bindings: [tools] }));
}, 300_000);

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

async function runEach(programs: string[], extra: Partial<CodeRunRequest> = {}): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (const program of programs) results.push(await run(program, extra));
  return results;
}

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
      `n = 2\nprint("hi", {"a": n}, [1, "x"])\nimport sys, time\ntime.sleep(0.01)\nprint("bad", file=sys.stderr)\nreturn {"sum": n + 40}`,
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

describe('pyodide engine: runs like the CPython backend', () => {
  test('bindings are coroutines over the bridge (gather, sleep), failures are the namespace error class', async () => {
    const result = await run(`import asyncio
a = await tools.echo({"x": 1})
every = await asyncio.gather(*[tools.slow({"i": i}) for i in range(3)])
await asyncio.sleep(0.01)
try:
    await tools.fail({})
except ToolError as e:
    caught = {"name": type(e).__name__, "tool": e.tool, "message": str(e)}
return {"a": a, "every": every, "caught": caught}`);
    expect(result.error).toBeUndefined();
    expect(result.value).toEqual({
      a: { x: 1 },
      every: [{ i: 0 }, { i: 1 }, { i: 2 }],
      caught: { name: 'ToolError', tool: 'fail', message: 'no such city' },
    });
    expect(result.calls.map((c) => c.name)).toEqual(['echo', 'slow', 'slow', 'slow', 'fail']);
  }, 300_000);

  test('lossy arguments and completions, no return', async () => {
    const [lossyArgs, lossyValue, none] = await runEach([
      `try:\n    await tools.echo({"f": float("nan")})\nexcept ToolError as e:\n    return str(e)`,
      'return {"n": float("nan")}',
      'print(1)',
    ]);
    expect(lossyArgs?.value).toBe('arguments to tools.echo must be lossless JSON: $.f is NaN');
    expect(lossyValue?.error).toEqual({
      kind: 'invalid-output',
      message: 'program completion must be lossless JSON: $.n is NaN',
    });
    expect(none?.value).toBeNull();
  }, 300_000);

  test('exceptions and syntax errors name their line in the cell; an uncaught binding failure its call', async () => {
    const [raised, syntax, binding] = await runEach([
      'a = 1\nb = 2\nraise ValueError("bad")',
      'a = 1\nb = = 2',
      'a = 1\nawait tools.fail({})',
    ]);
    expect(raised?.error).toMatchObject({ kind: 'exception', location: { line: 3 } });
    expect(raised?.error?.message).toMatch(/ValueError: bad$/);
    expect(syntax?.error).toMatchObject({ kind: 'exception', location: { line: 2 } });
    expect(syntax?.error?.message).toContain('SyntaxError');
    expect(binding?.error).toMatchObject({ kind: 'exception', location: { line: 2 } });
    expect(binding?.error?.message).toMatch(/ToolError: no such city$/);
  }, 300_000);

  test('sys.exit ends the run with its code, as a CPython child exiting does (asyncio re-raises it out of the loop)', async () => {
    const [exited, zero] = await runEach([
      'import sys\nprint("leaving")\nsys.exit(3)',
      'import sys\nasync def later():\n    sys.exit()\nawait later()',
    ]);
    expect(exited?.logs).toEqual(['leaving']);
    expect(exited?.error).toEqual({
      kind: 'worker-exit',
      message: 'The pyodide engine process exited before completing (code 3)',
    });
    expect(zero?.error).toEqual({
      kind: 'worker-exit',
      message: 'The pyodide engine process exited before completing (code 0)',
    });
  }, 300_000);

  test('what Pyodide cannot offer fails as an exception naming the engine', async () => {
    const programs = [
      'import subprocess\nsubprocess.run(["true"])',
      'import threading\nthreading.Thread(target=print).start()',
      'import os\nos.system("true")',
      'import socket\nsocket.create_connection(("127.0.0.1", 9))',
      'import ctypes',
      'import micropip',
    ];
    const results = await runEach(programs);
    for (const result of results) {
      expect(result.error?.kind).toBe('exception');
      expect(result.error?.message).toContain('pyodide engine');
    }
  }, 300_000);
});

describe('pyodide engine: limits', () => {
  test('the deadline ends a tight loop as timeout (the child is stopped from outside)', async () => {
    const result = await run('while True:\n    pass', { timeoutMs: 3_000 });
    expect(result.error?.kind).toBe('timeout');
  }, 300_000);

  test('memory exhaustion ends as MemoryError, and a bounded program under the same limit runs', async () => {
    const [exhausted, bounded] = await runEach(
      [
        'a = []\nwhile True:\n    a.append(bytearray(1 << 20))',
        'a = [bytearray(1 << 20) for _ in range(8)]\nreturn len(a)',
      ],
      { memoryMb: 128 },
    );
    expect(exhausted?.error?.kind).toBe('exception');
    expect(exhausted?.error?.message).toContain('MemoryError');
    expect(bounded?.value).toBe(8);
  }, 300_000);

  test('the output cap, pending calls and the call budget', async () => {
    const output = await run('for i in range(100000):\n    print("x" * 100)', { maxOutputBytes: 65_536 });
    const pending = await run(
      'import asyncio\nreturn len(await asyncio.gather(*[tools.slow({"i": i}) for i in range(20)]))',
      { maxPendingCalls: 2 },
    );
    const budget = await run('for i in range(5):\n    await tools.echo({"i": i})', { maxCalls: 2 });
    expect(output.error?.kind).toBe('output-limit');
    expect(pending.value).toBe(20);
    expect(budget.error?.kind).toBe('call-limit');
  }, 300_000);
});

describe('engine choice for Python', () => {
  test('auto runs CPython where the OS sandbox proved itself, and pyodide (with one notice) where not', async () => {
    const native = await runtime.run(runtime.resolve({ language: 'python', program: 'return 1', engine: 'auto' }));
    expect(native.sandbox).toMatchObject({ engine: 'cpython', isolation: 'os', enforcement: 'full' });
    const bare = createRuntime({ bubblewrapPath: null });
    try {
      const result = await bare.run(
        bare.resolve({ language: 'python', program: 'return 1', engine: 'auto', timeoutMs: 120_000 }),
      );
      expect(result.value).toBe(1);
      expect(result.sandbox).toMatchObject({ engine: 'pyodide', isolation: 'wasm', enforcement: 'full' });
      expect(result.sandbox.notice).toMatch(/OS sandbox is not available here.*pyodide WebAssembly engine/);
      const required = await bare.run(
        bare.resolve({
          language: 'python',
          program: 'return 2',
          engine: 'wasm',
          sandbox: 'required',
          timeoutMs: 120_000,
        }),
      );
      expect(required.value).toBe(2);
    } finally {
      await bare.dispose();
    }
  }, 300_000);
});

// The controls: the same attacks on an interpreter loaded without the lockdown (Pyodide as it comes, in this process)
// reach the embedding, so each refusal inside the engine is the lockdown's doing.
const ATTACKS = `
import gc, os
seen = {}
def attempt(name, action):
    try:
        seen[name] = bool(action())
    except BaseException as e:
        seen[name] = False
def js_global():
    import js
    return js.process.pid > 0
def pyodide_js_module():
    import pyodide_js
    return pyodide_js._module.FS is not None
def ffi_to_js():
    from pyodide.ffi import to_js
    return to_js({}).constructor is not None
def nodefs_mount():
    import pyodide_js
    fs = pyodide_js._module.FS
    fs.mkdirTree("/ptc-host")
    import js
    from pyodide.ffi import to_js
    options = to_js({"root": os.path.dirname(SECRET)}, dict_converter=js.Object.fromEntries)
    fs.mount(pyodide_js._module.NODEFS, options, "/ptc-host")
    return len(open("/ptc-host/" + os.path.basename(SECRET)).read()) > 0
def mount_node_fs():
    import pyodide_js
    pyodide_js.mountNodeFS("/ptc-host-2", os.path.dirname(SECRET))
    return len(open("/ptc-host-2/" + os.path.basename(SECRET)).read()) > 0
def gc_to_js():
    for item in gc.get_objects():
        if callable(item) and getattr(item, "__module__", None) == "_pyodide_core" and getattr(item, "__name__", "") == "to_js":
            return item({}) is not None
    return False
def shell():
    return os.system("true") == 0
def jsproxy_instances():
    # Pyodide's C types (the JsProxy family) stay reachable through object.__subclasses__(); a way out needs an
    # instance: any JsProxy held by a tracked object or its referents, asked for the host's globals
    kinds, todo = set(), [object]
    while todo:
        for sub in type.__subclasses__(todo.pop()):
            if sub not in kinds:
                kinds.add(sub)
                todo.append(sub)
    proxies = tuple(kind for kind in kinds if kind.__name__.startswith("JsProxy"))
    if not proxies:
        raise LookupError("no JsProxy type")
    for item in gc.get_objects():
        for ref in [item] + gc.get_referents(item):
            if isinstance(ref, proxies):
                for name in ("process", "require", "_module", "FS"):
                    try:
                        if getattr(ref, name) is not None:
                            return True
                    except Exception:
                        pass
    return False
attempt("js", js_global)
attempt("pyodide_js", pyodide_js_module)
attempt("ffi", ffi_to_js)
attempt("nodefs", nodefs_mount)
attempt("mountNodeFS", mount_node_fs)
attempt("gc", gc_to_js)
attempt("system", shell)
attempt("jsproxy", jsproxy_instances)
return seen`;

describe('pyodide engine: attacks on the embedding', () => {
  const secretDir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), 'ptc-pyodide-secret-'));
  const secret = path.join(secretDir, 'secret.txt');
  fs.writeFileSync(secret, 'the host secret');
  afterAll(() => fs.rmSync(secretDir, { recursive: true, force: true }));
  const program = `SECRET = ${JSON.stringify(secret)}\n${ATTACKS}`;

  test('js, pyodide_js, pyodide.ffi, NODEFS and FS.mount, gc, os.system and JsProxy instances reach nothing of the host', async () => {
    const result = await run(program, { bindings: [] });
    expect(result.value).toEqual({
      js: false,
      pyodide_js: false,
      ffi: false,
      nodefs: false,
      mountNodeFS: false,
      gc: false,
      system: false,
      jsproxy: false,
    });
  }, 300_000);

  test('the control: the same attacks on Pyodide without the lockdown reach the embedding', async () => {
    const folder = pyodideFolder();
    expect(folder).toBeDefined();
    const guest = await loadGuest({ loadPyodide, indexURL: `${folder}/`, modules: guestModules(), lockdown: false });
    const boot = { code: program, namespaces: [], maxOutputBytes: 1 << 20, maxPendingCalls: 4 };
    const step: GuestStep = guest.start(JSON.stringify(boot));
    const done = step.frames
      .map((f) => JSON.parse(f) as { type: string; value?: unknown })
      .find((f) => f.type === 'done');
    expect(done?.value).toEqual({
      js: true,
      pyodide_js: true,
      ffi: true,
      nodefs: true,
      mountNodeFS: true,
      gc: true,
      system: true,
      jsproxy: true,
    });
  }, 300_000);
});

describe('pyodide engine: the isolation proof', () => {
  test('the probe program, run natively without a sandbox (the control), finds ways out; inside pyodide none', async () => {
    const program = pyodideProbeProgram('/etc/hostname');
    const native = await run(program, { engine: 'native', sandbox: 'off', bindings: [] });
    const inside = await run(program, { bindings: [] });
    const verdict = judgeWasmProbe(native.value, native.error?.message);
    expect(verdict.ok ? '' : verdict.problem).toMatch(/was not refused/);
    expect(inside.error).toBeUndefined();
    expect(inside.value).toEqual({ refused: expect.any(Object) });
    expect(judgeWasmProbe(inside.value, inside.error?.message)).toEqual({ ok: true });
  }, 300_000);
});
