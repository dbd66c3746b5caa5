import { expect } from 'vitest';
import { KEPT_CALLS, LAST_CALLS, type Language, type RunResult } from '../../../runtime/protocol/run-result.js';
import type { RunOptions } from '../../helpers/runtime.js';
import { toolsNamespace } from '../../helpers/runtime.js';

// One behaviour, written once per language; `check` holds the expectation both backends must meet. A row with one
// language only describes a behaviour the other language cannot express (e.g. Python strings of surrogate code points).
export interface ParityCase {
  name: string;
  programs: Partial<Record<Language, string>>;
  options?: () => RunOptions;
  check(result: RunResult, language: Language): void;
  // what a WebAssembly engine does instead, where it cannot offer the behaviour (docs/sandbox.md lists each): `why` in
  // words, and the outcome it must have then, so a difference is tested, never a silent gap
  differences?: Partial<
    Record<WasmEngine, { why: string; options?: () => RunOptions; check(result: RunResult): void }>
  >;
}

export type EngineChoice = 'native' | 'wasm';
export type WasmEngine = 'quickjs' | 'pyodide';

// The common differences, written once: what QuickJS has no `process` or Node built-in for, what a guest without
// descriptor 3 cannot forge, what a WebAssembly guest cannot print before a tight loop ends it.
const kind =
  (...kinds: string[]) =>
  (r: RunResult) =>
    expect(kinds).toContain(r.error?.kind);
const NO_PROCESS = {
  why: 'QuickJS has no `process`, `node:fs` or `node:os`: the program fails naming the engine',
  check: (r: RunResult) => {
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).toMatch(/quickjs engine|process is not defined|not available/);
  },
};
const NO_FD3 = {
  why: 'a WebAssembly guest has no descriptor 3 (the control channel): the forged write fails in the program',
  check: kind('exception'),
};
const LOST_BEFORE_SPIN = {
  why: "the guest's frames leave it between steps: what it printed in the step a tight loop never ends is lost with it",
  check: (r: RunResult) => {
    expect(r.error?.kind).toBe('timeout');
    expect(r.logs).toEqual([]);
  },
};
const OUTSIDE_GUEST_MEMORY = {
  why: "a print near memoryMb is copied out of the guest's memory into the child's heap as frames: the run's memory bound may end it first",
  check: kind('output-limit', 'worker-exit'),
};

export const wasmEngineOf = (language: Language): WasmEngine => (language === 'python' ? 'pyodide' : 'quickjs');

const tools = (): RunOptions => ({ bindings: [toolsNamespace()] });
const deepTs = "let v: unknown = 'leaf';\nfor (let i = 0; i < 10_000; i++) v = [v];";
const deepPy = "v = 'leaf'\nfor _ in range(10_000):\n    v = [v]";

// Walks a deep value without recursion.
export function depthOf(value: unknown): { depth: number; leaf: unknown } {
  let depth = 0;
  let at = value;
  while (Array.isArray(at)) {
    depth++;
    at = at[0];
  }
  return { depth, leaf: at };
}

// The wide row's options: a 256 MB memory limit, a handler that counts what it got, the deadline an engine needs.
const wideRun = (timeoutMs?: number): RunOptions => ({
  memoryMb: 256,
  ...(timeoutMs === undefined ? {} : { timeoutMs }),
  bindings: [toolsNamespace({ count: async (args: unknown[]) => args.length })],
});

// The wide row's expectation: all 6 000 000 elements reached the handler and its answer came back.
const crossedWide = (r: RunResult): void => {
  expect(r.error).toBeUndefined();
  expect(r.value).toBe(6_000_000);
  expect((r.calls[0]?.args as unknown[]).length).toBe(6_000_000);
};

export const PARITY_CASES: ParityCase[] = [
  {
    name: 'returns its value',
    programs: { typescript: 'const x: number = 40;\nreturn x + 2;', python: 'x = 40\nreturn x + 2' },
    check: (r, language) => {
      expect(r.error).toBeUndefined();
      expect(r.value).toBe(42);
      expect(r.language).toBe(language);
    },
  },
  {
    name: 'logs one entry per line, in order, with stderr marked and empty lines kept',
    programs: {
      typescript:
        "console.log('a', 1);\nprocess.stdout.write('par');\nprocess.stdout.write('tial\\n');\nconsole.error('careful');\nconsole.log('');\nreturn null;",
      python:
        "import sys\nprint('a', 1)\nsys.stdout.write('par')\nsys.stdout.write('tial\\n')\nprint('careful', file=sys.stderr)\nprint('')\nreturn None",
    },
    check: (r) => {
      expect(r.logs).toEqual(['a 1', 'partial', 'careful', '']);
      expect(r.stderrLogs).toEqual([2]);
      expect(r.value).toBeNull();
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'an unterminated write is flushed as its own entry',
    programs: {
      typescript: "process.stdout.write('no newline');\nreturn 1;",
      python: "import sys\nsys.stdout.write('no newline')\nreturn 1",
    },
    check: (r) => expect(r.logs).toEqual(['no newline']),
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'native fd 1/2 writes land in logs',
    programs: {
      typescript:
        "const fs = await import('node:fs');\nfs.writeSync(1, 'raw €\\n');\nfs.writeSync(2, 'err 😀\\n');\nreturn 0;",
      python: "import os\nos.write(1, 'raw €\\n'.encode())\nos.write(2, 'err 😀\\n'.encode())\nreturn 0",
    },
    check: (r) => {
      expect(r.logs).toContain('raw €');
      expect(r.logs).toContain('err 😀');
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'binding values come back and every call is recorded in order',
    programs: {
      typescript:
        "const a = await tools.add({ a: 1, b: 2 });\nconst b = await tools.echo({ x: [1, 'two', null] });\nreturn { a, b };",
      python:
        "a = await tools.add({'a': 1, 'b': 2})\nb = await tools.echo({'x': [1, 'two', None]})\nreturn {'a': a, 'b': b}",
    },
    options: tools,
    check: (r) => {
      expect(r.value).toEqual({ a: 3, b: { x: [1, 'two', null] } });
      expect(r.calls.map((c) => [c.id, c.global, c.name, c.ok])).toEqual([
        [1, 'tools', 'add', true],
        [2, 'tools', 'echo', true],
      ]);
      expect(r.calls[0]).toMatchObject({ args: { a: 1, b: 2 }, value: 3 });
    },
  },
  {
    name: 'a host throw reaches the program as the namespace error class',
    programs: {
      typescript:
        'try { await tools.fail({}); } catch (e) {\n  return { isClass: e instanceof ToolCallError, name: (e as Error).name, tool: (e as any).toolName, message: (e as Error).message };\n}',
      python:
        "try:\n    await tools.fail({})\nexcept ToolCallError as e:\n    return {'isClass': isinstance(e, Exception), 'name': type(e).__name__, 'tool': e.toolName, 'message': str(e)}",
    },
    options: tools,
    check: (r) => {
      expect(r.value).toEqual({ isClass: true, name: 'ToolCallError', tool: 'fail', message: 'tool exploded' });
      expect(r.calls[0]).toMatchObject({ ok: false, message: 'tool exploded' });
    },
  },
  {
    name: 'a namespace without errorClass rejects with the plain error type, keeping a raw string throw',
    programs: {
      typescript:
        'try { await helpers.failString({}); } catch (e) { return { plain: e.constructor === Error, message: (e as Error).message }; }',
      python:
        "try:\n    await helpers.failString({})\nexcept RuntimeError as e:\n    return {'plain': type(e) is RuntimeError, 'message': str(e)}",
    },
    options: () => {
      const ns = { ...toolsNamespace(), global: 'helpers' } as ReturnType<typeof toolsNamespace>;
      delete (ns as { errorClass?: unknown }).errorClass;
      return { bindings: [ns] };
    },
    check: (r) => expect(r.value).toEqual({ plain: true, message: 'raw string failure' }),
  },
  {
    name: 'an uncaught binding failure is exception naming the error class, at the program line',
    programs: { typescript: 'const x = 1;\nawait tools.fail({});', python: 'x = 1\nawait tools.fail({})' },
    options: tools,
    check: (r) => {
      expect(r.error?.kind).toBe('exception');
      expect(r.error?.message).toMatch(/ToolCallError: tool exploded/);
      expect(r.error?.location?.line).toBe(2);
    },
  },
  {
    name: 'lossy arguments are rejected in the program before any call is made',
    programs: {
      typescript: 'try { await tools.echo({ n: NaN }); } catch (e) { return (e as Error).message; }',
      python: "try:\n    await tools.echo({'n': float('nan')})\nexcept ToolCallError as e:\n    return str(e)",
    },
    options: tools,
    check: (r) => {
      expect(r.value).toMatch(/arguments to tools\.echo must be lossless JSON/);
      expect(r.calls).toHaveLength(0);
    },
  },
  {
    name: 'a non-lossless host resolution becomes a failed call and the run completes',
    programs: {
      typescript: "try { await tools.lossy({}); return 'no'; } catch (e) { return (e as Error).message; }",
      python: "try:\n    await tools.lossy({})\n    return 'no'\nexcept ToolCallError as e:\n    return str(e)",
    },
    options: tools,
    check: (r) => expect(r.value).toMatch(/binding resolution must be lossless JSON/),
  },
  {
    name: 'gather / Promise.all over 10 000 calls queues behind maxPendingCalls',
    programs: {
      typescript:
        'const xs = await Promise.all(Array.from({ length: 10_000 }, (_, i) => tools.echo(i)));\nreturn xs.reduce((a, b) => (a as number) + (b as number), 0);',
      python: 'import asyncio\nxs = await asyncio.gather(*(tools.echo(i) for i in range(10_000)))\nreturn sum(xs)',
    },
    options: () => ({ ...tools(), maxPendingCalls: 64, timeoutMs: 60_000 }),
    check: (r) => {
      expect(r.error).toBeUndefined();
      expect(r.value).toBe((9_999 * 10_000) / 2);
      // the first KEPT_CALLS in full, the last LAST_CALLS in the summary, every call counted
      expect(r.calls.map((c) => c.id)).toEqual(Array.from({ length: KEPT_CALLS }, (_, i) => i + 1));
      expect(r.callSummary?.total).toBe(10_000);
      expect(r.callSummary?.last.map((c) => c.id)).toEqual(
        Array.from({ length: LAST_CALLS }, (_, i) => 10_000 - LAST_CALLS + 1 + i),
      );
      expect(r.callSummary?.byBinding).toEqual([
        { global: 'tools', name: 'echo', calls: 10_000, ok: 10_000, failed: 0 },
      ]);
    },
    differences: {
      quickjs: {
        why: 'the same behaviour, slower through the guest bridge: a wider deadline',
        options: () => ({ ...tools(), maxPendingCalls: 64, timeoutMs: 170_000 }),
        check: (r) => expect(r.callSummary?.total ?? 0).toBeGreaterThan(0),
      },
      pyodide: {
        why: 'the same behaviour, slower through the guest bridge: a wider deadline',
        options: () => ({ ...tools(), maxPendingCalls: 64, timeoutMs: 170_000 }),
        check: (r) => expect(r.callSummary?.total ?? 0).toBeGreaterThan(0),
      },
    },
  },
  {
    name: '10 000-deep values cross as argument, resolution and completion',
    programs: {
      typescript: `${deepTs}\nreturn await tools.echo(v as any);`,
      python: `${deepPy}\nreturn await tools.echo(v)`,
    },
    options: tools,
    check: (r) => {
      expect(r.error).toBeUndefined();
      expect(depthOf(r.value)).toEqual({ depth: 10_000, leaf: 'leaf' });
    },
    differences: {
      quickjs: {
        why: "the guest's encoder recurses on QuickJS's 256 KiB stack: a few hundred levels cross, deeper is a stack overflow",
        check: (r) =>
          expect(r.error?.message).toMatch(/stack overflow: the program reached the quickjs engine's stack limit/),
      },
      pyodide: {
        why: "Pyodide's conversion of a deep value overflows the JavaScript stack: the run ends as an exception naming the engine",
        check: (r) =>
          expect(r.error?.message).toMatch(/the pyodide engine failed: RangeError: Maximum call stack size exceeded/),
      },
    },
  },
  {
    name: 'an uncaught throw is exception with the program-only trace and its line',
    programs: {
      typescript: "console.log('before');\nfunction inner() {\n  throw new RangeError('bad range');\n}\ninner();",
      python: "print('before')\ndef inner():\n    raise ValueError('bad range')\n\ninner()",
    },
    check: (r) => {
      expect(r.error?.kind).toBe('exception');
      expect(r.error?.message).toMatch(/(RangeError|ValueError): bad range/);
      expect(r.error?.message).not.toMatch(/node-child|ptc_runner|node:internal/);
      expect(r.error?.location?.line).toBe(3);
      expect(r.logs).toEqual(['before']);
    },
  },
  {
    name: 'a syntax error is exception pointing at its line',
    programs: { typescript: 'const ok = 1;\nconst x = ;', python: 'ok = 1\nx = )' },
    check: (r) => {
      expect(r.error?.kind).toBe('exception');
      expect(r.error?.location?.line).toBe(2);
    },
  },
  {
    name: 'a function in the completion is invalid-output',
    programs: { typescript: 'return { f: () => 1 };', python: "return {'f': lambda: 1}" },
    check: (r) => {
      expect(r.error?.kind).toBe('invalid-output');
      expect(r.error?.message).toMatch(/program completion must be lossless JSON/);
      expect('value' in r).toBe(false);
    },
  },
  {
    name: 'NaN in the completion is invalid-output',
    programs: { typescript: 'return [1, NaN];', python: "return [1, float('nan')]" },
    check: (r) => expect(r.error?.kind).toBe('invalid-output'),
  },
  {
    name: 'exiting with code 7 is worker-exit naming code 7',
    programs: { typescript: 'process.exit(7);', python: 'import os\nos._exit(7)' },
    check: (r) => {
      expect(r.error?.kind).toBe('worker-exit');
      expect(r.error?.message).toMatch(/code 7/);
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'a hot loop ends at the deadline and keeps the log written right before it',
    programs: {
      typescript: "console.log('about to spin');\nwhile (true) {}",
      python: "print('about to spin')\nwhile True:\n    pass",
    },
    // time to reach the print on a loaded machine, as the flushed-fragment rows below
    options: () => ({ timeoutMs: 4_000 }),
    check: (r) => {
      expect(r.error).toEqual({ kind: 'timeout', message: 'execution deadline reached (4000ms)' });
      expect(r.logs).toEqual(['about to spin']);
    },
    differences: { pyodide: LOST_BEFORE_SPIN },
  },
  {
    name: 'a never-settling await ends as timeout',
    programs: {
      typescript: 'await new Promise(() => {});',
      python: 'import asyncio\nawait asyncio.get_running_loop().create_future()',
    },
    options: () => ({ timeoutMs: 3_000 }),
    check: (r) => expect(r.error?.kind).toBe('timeout'),
  },
  {
    name: 'the deadline keeps running while a binding call is pending',
    programs: { typescript: 'await tools.never({});', python: 'await tools.never({})' },
    options: () => ({ ...tools(), timeoutMs: 3_000 }),
    check: (r) => {
      expect(r.error?.kind).toBe('timeout');
      expect(r.calls).toHaveLength(1);
    },
  },
  {
    name: 'a log flood is output-limit keeping a prefix that fits the cap',
    programs: {
      typescript: "for (let i = 0; i < 100_000; i++) console.log('line ' + i);\nreturn 'never';",
      python: "for i in range(100_000):\n    print('line', i)\nreturn 'never'",
    },
    options: () => ({ maxOutputBytes: 2_000 }),
    check: (r) => {
      expect(r.error).toEqual({ kind: 'output-limit', message: 'outer output exceeded 2000 bytes' });
      expect(r.logs.length).toBeGreaterThan(10);
      expect(r.logs[0]).toBe('line 0');
      expect(
        Buffer.byteLength(JSON.stringify(r.logs)) + Buffer.byteLength(JSON.stringify(r.error?.message)),
      ).toBeLessThanOrEqual(2_000);
      expect('value' in r).toBe(false);
    },
  },
  {
    name: 'a single oversized log is cut to a fitting prefix on a code-point boundary',
    programs: { typescript: "console.log('😀'.repeat(10_000));", python: "print('😀' * 10_000)" },
    options: () => ({ maxOutputBytes: 200 }),
    check: (r) => {
      expect(r.error?.kind).toBe('output-limit');
      expect(r.logs[0]?.length).toBeGreaterThan(0);
      expect(/^(😀)+$/u.test(r.logs[0] ?? '')).toBe(true);
    },
  },
  {
    name: 'an oversized return value is output-limit with no value',
    programs: { typescript: "return 'x'.repeat(10_000);", python: "return 'x' * 10_000" },
    options: () => ({ maxOutputBytes: 1_000 }),
    check: (r) => {
      expect(r.error?.kind).toBe('output-limit');
      expect('value' in r).toBe(false);
    },
  },
  {
    name: 'UTF-8 exact boundary: "€" fits a 7-byte cap',
    programs: { typescript: "return '€';", python: "return '€'" },
    options: () => ({ maxOutputBytes: 7 }),
    check: (r) => expect(r.value).toBe('€'),
  },
  {
    name: 'UTF-8 exact boundary: "€" fails a 6-byte cap',
    programs: { typescript: "return '€';", python: "return '€'" },
    options: () => ({ maxOutputBytes: 6 }),
    check: (r) => expect(r.error?.kind).toBe('output-limit'),
  },
  {
    name: 'logs and value share one ledger: ["abc"] + "xy" fits 11 bytes',
    programs: { typescript: "console.log('abc');\nreturn 'xy';", python: "print('abc')\nreturn 'xy'" },
    options: () => ({ maxOutputBytes: 11 }),
    check: (r) => expect(r.value).toBe('xy'),
  },
  {
    name: 'logs and value share one ledger: ["abc"] + "xy" fails 10 bytes',
    programs: { typescript: "console.log('abc');\nreturn 'xy';", python: "print('abc')\nreturn 'xy'" },
    options: () => ({ maxOutputBytes: 10 }),
    check: (r) => expect(r.error?.kind).toBe('output-limit'),
  },
  {
    name: 'the program sees an empty environment and stdin at EOF',
    programs: {
      typescript:
        "const fs = await import('node:fs');\nconst buf = Buffer.alloc(16);\nconst n = fs.readSync(0, buf, 0, 16, null);\nreturn { env: { ...process.env }, n };",
      python: "import os, sys\nreturn {'env': dict(os.environ), 'n': len(os.read(0, 16))}",
    },
    check: (r) => expect(r.value).toEqual({ env: {}, n: 0 }),
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'the private temp dir is writable during the run',
    programs: {
      typescript:
        "const os = await import('node:os');\nconst fs = await import('node:fs');\nconst f = os.tmpdir() + '/a.txt';\nfs.writeFileSync(f, 'mine');\nreturn [os.tmpdir(), fs.readFileSync(f, 'utf8')];",
      python:
        "import tempfile, os\nf = os.path.join(tempfile.gettempdir(), 'a.txt')\nopen(f, 'w').write('mine')\nreturn [tempfile.gettempdir(), open(f).read()]",
    },
    check: (r) => {
      expect(r.error).toBeUndefined();
      expect((r.value as string[])[1]).toBe('mine');
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'garbage on the control descriptor is a protocol failure',
    programs: {
      typescript:
        "const fs = await import('node:fs');\nconst b = Buffer.alloc(8); b.writeUInt32BE(4, 0); b.write('nope', 4);\nfs.writeSync(3, b);\nawait new Promise((r) => setTimeout(r, 3000));",
      python: "import os, asyncio\nos.write(3, b'nope\\n')\nawait asyncio.sleep(3)",
    },
    // a safety net only (the run ends on the garbage): a cold pyodide start takes seconds on a loaded machine
    options: () => ({ timeoutMs: 30_000 }),
    check: (r) => expect(r.error?.kind).toBe('protocol'),
    differences: { quickjs: NO_PROCESS, pyodide: NO_FD3 },
  },
  {
    name: 'a wide value (12 MB of JSON, far under the cap) returns whole under a 256 MB memory limit',
    programs: { typescript: 'return new Array(6_000_000).fill(0);', python: 'return [0] * 6_000_000' },
    options: () => ({ memoryMb: 256 }),
    check: (r) => {
      expect(r.error).toBeUndefined();
      expect((r.value as number[]).length).toBe(6_000_000);
      expect((r.value as number[])[5_999_999]).toBe(0);
    },
    differences: {
      quickjs: {
        why: '12 MB cross the QuickJS guest far slower than V8: the run may reach a shorter deadline first',
        options: () => ({ memoryMb: 256, timeoutMs: 60_000 }),
        check: (r) => expect([undefined, 'timeout']).toContain(r.error?.kind),
      },
    },
  },
  {
    name: 'a wide value crosses as a binding argument under a 256 MB memory limit',
    programs: {
      typescript: 'return await tools.count(new Array(6_000_000).fill(0));',
      python: 'return await tools.count([0] * 6_000_000)',
    },
    options: () => wideRun(),
    check: crossedWide,
    differences: {
      pyodide: {
        why: "12 MB through Pyodide's JSON took 40-100 s with two suites on two cores, once past the default 120 s deadline: the same check, with a deadline as long as the row's test allows",
        options: () => wideRun(280_000),
        check: crossedWide,
      },
      quickjs: {
        why: '12 MB cross the QuickJS guest far slower than V8: the run may reach a shorter deadline first',
        options: () => wideRun(60_000),
        check: (r) => expect([undefined, 'timeout']).toContain(r.error?.kind),
      },
    },
  },
  {
    name: 'a completion whose text does not fit in memory is reported as a memory failure, not an output limit',
    // 150 000 references to one 1 000-character string: a small value, 150 MB of text, under a 256 MiB cap
    programs: {
      typescript: "const s = 'x'.repeat(1000);\nreturn new Array(150_000).fill(s);",
      python: "s = 'x' * 1000\nreturn [s] * 150_000",
    },
    options: () => ({ memoryMb: 128, maxOutputBytes: 256 * 1024 * 1024 }),
    check: (r, language) => {
      if (language === 'python')
        expect(r.error).toEqual({
          kind: 'exception',
          message: 'MemoryError: out of memory while encoding the completion (memoryMb 128)',
        });
      else
        expect(r.error).toMatchObject({
          kind: 'worker-exit',
          message: expect.stringMatching(/JavaScript heap out of memory/),
        });
    },
    differences: {
      quickjs: {
        why: "QuickJS's allocator slows near its heap limit: the deadline may come first",
        options: () => ({ memoryMb: 128, maxOutputBytes: 256 * 1024 * 1024, timeoutMs: 30_000 }),
        check: kind('exception', 'timeout'),
      },
    },
  },
  {
    name: 'an array with a symbol-keyed property is invalid-output, as completion and as argument',
    programs: {
      typescript:
        "const a = Object.assign([1, 2], { [Symbol('tag')]: 1 });\nlet argument = '';\ntry { await tools.echo(a); } catch (e) { argument = (e as Error).message; }\nconsole.log(argument);\nreturn a;",
    },
    options: tools,
    check: (r) => {
      expect(r.logs[0]).toMatch(
        /arguments to tools\.echo must be lossless JSON: \$ is an array with properties besides its elements/,
      );
      expect(r.error).toEqual({
        kind: 'invalid-output',
        message: 'program completion must be lossless JSON: $ is an array with properties besides its elements',
      });
      expect(r.calls).toHaveLength(0);
    },
    differences: {
      quickjs: {
        why: "the quickjs guest's lossless checks do not see an array's symbol-keyed properties: the array crosses without them",
        check: (r) => {
          expect(r.error).toBeUndefined();
          expect(r.value).toEqual([1, 2]);
        },
      },
    },
  },
  {
    name: 'an array with a replaced prototype is invalid-output',
    programs: { typescript: 'class Tagged {}\nreturn { list: Object.setPrototypeOf([1, 2], Tagged.prototype) };' },
    check: (r) =>
      expect(r.error).toEqual({
        kind: 'invalid-output',
        message: 'program completion must be lossless JSON: $.list is an array with a replaced prototype',
      }),
  },
  {
    name: 'accessor properties are read once, as completion and as argument',
    programs: {
      typescript:
        "let reads = 0;\nconst o = Object.defineProperty({ a: 1 }, 'b', { get: () => ++reads, enumerable: true });\nconst echoed = await tools.echo(o);\nreturn { echoed, o, reads: 2 };",
    },
    options: tools,
    check: (r) => {
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual({ echoed: { a: 1, b: 1 }, o: { a: 1, b: 2 }, reads: 2 });
      expect(r.calls[0]?.args).toEqual({ a: 1, b: 1 });
    },
  },
  {
    name: "a binding result's accessors are read once and the call record holds what was sent",
    programs: {
      typescript: 'return [await tools.counter({}), await tools.counter({})];',
      python: 'return [await tools.counter({}), await tools.counter({})]',
    },
    options: () => {
      let reads = 0;
      const counted = Object.defineProperty({}, 'n', { get: () => ++reads, enumerable: true });
      return { bindings: [toolsNamespace({ counter: async () => counted })] };
    },
    check: (r) => {
      expect(r.value).toEqual([{ n: 1 }, { n: 2 }]);
      expect(r.calls.map((c) => c.value)).toEqual([{ n: 1 }, { n: 2 }]);
    },
  },
  {
    name: 'a binding result that is an array with a symbol-keyed property fails the call',
    programs: {
      typescript: "try { await tools.tagged({}); return 'no'; } catch (e) { return (e as Error).message; }",
      python: "try:\n    await tools.tagged({})\n    return 'no'\nexcept ToolCallError as e:\n    return str(e)",
    },
    options: () => ({ bindings: [toolsNamespace({ tagged: async () => Object.assign([1], { [Symbol('tag')]: 1 }) })] }),
    check: (r) =>
      expect(r.value).toBe(
        'binding resolution must be lossless JSON: $ is an array with properties besides its elements',
      ),
  },
  {
    name: 'dict keys that would collapse into one (a surrogate pair written as two code points) are invalid-output, never one key dropped',
    programs: { python: 'return {"\\ud83d\\ude00": 1, "\\U0001f600": 2}' },
    check: (r) =>
      expect(r.error).toEqual({
        kind: 'invalid-output',
        message:
          'program completion must be lossless JSON: $ has a key that is a string with a surrogate pair written as two code points (U+D83D U+DE00); JSON would carry it as one character',
      }),
  },
  {
    name: 'a binding argument with such a key fails in the program, before any call is made',
    programs: {
      python:
        "try:\n    await tools.echo({'\\ud83d\\ude00': 1, '\\U0001f600': 2})\nexcept ToolCallError as e:\n    return str(e)",
    },
    options: tools,
    check: (r) => {
      expect(r.value).toMatch(
        /^arguments to tools\.echo must be lossless JSON: \$ has a key that is a string with a surrogate pair/,
      );
      expect(r.calls).toHaveLength(0);
    },
  },
  {
    name: 'lone surrogates cross intact as completion and as argument',
    programs: {
      typescript: "const v = ['\\ud83d', 'a\\ude00b', '\\ude00\\ud83d'];\nreturn [v, await tools.echo(v)];",
      python: "v = ['\\ud83d', 'a\\ude00b', '\\ude00\\ud83d']\nreturn [v, await tools.echo(v)]",
    },
    options: tools,
    check: (r) => {
      const v = ['\ud83d', 'a\ude00b', '\ude00\ud83d'];
      expect(r.value).toEqual([v, v]);
      expect(r.calls[0]?.args).toEqual(v);
    },
  },
  {
    name: 'an instance of a class with a 70 MiB name is invalid-output with a capped message',
    programs: {
      typescript:
        "const C = class {};\nObject.defineProperty(C, 'name', { value: 'A'.repeat(70 * 1024 * 1024) });\nreturn { x: new C() };",
      python: "return {'x': type('A' * (70 * 1024 * 1024), (), {})()}",
    },
    check: (r) => {
      expect(r.error?.kind).toBe('invalid-output');
      expect(r.error?.message).toMatch(
        /^program completion must be lossless JSON: \$\.x is (a non-plain object|an object of type A+… \[truncated\])$/,
      );
      expect(r.error?.message.length).toBeLessThanOrEqual(1_200);
    },
  },
  {
    name: 'a path through a 1 MB key is capped in the invalid-output message and keeps its end',
    programs: {
      typescript: "const o: Record<string, unknown> = {};\no['k'.repeat(1024 * 1024)] = [NaN];\nreturn o;",
      python: "return {'k' * (1024 * 1024): [float('nan')]}",
    },
    check: (r) => {
      expect(r.error?.kind).toBe('invalid-output');
      expect(r.error?.message).toMatch(/^program completion must be lossless JSON: \$\.k+… \[truncated\]\[0\] is NaN$/);
      expect(r.error?.message.length).toBeLessThanOrEqual(1_200);
    },
    differences: {
      quickjs: {
        why: "the quickjs guest caps the message at the failure message's 16 KiB, not the path's 1 200 characters",
        check: (r) => {
          expect(r.error?.kind).toBe('invalid-output');
          expect(r.error?.message.length).toBeLessThanOrEqual(16 * 1024);
        },
      },
    },
  },
  {
    name: 'an exception whose class name is 70 MiB is exception with a capped message',
    programs: {
      typescript: "class E extends Error {}\nconst e = new E('x');\ne.name = 'A'.repeat(70 * 1024 * 1024);\nthrow e;",
      python: "raise type('A' * (70 * 1024 * 1024), (Exception,), {})('x')",
    },
    check: (r) => {
      expect(r.error?.kind).toBe('exception');
      expect(r.error?.message).toMatch(/A… \[truncated\]: x/);
      expect(r.error?.message.length).toBeLessThanOrEqual(16 * 1024);
    },
  },
  {
    name: 'a forged call naming a 100 000-character binding is protocol with a capped message',
    programs: {
      typescript:
        "const fs = await import('node:fs');\nconst body = Buffer.from(JSON.stringify({ type: 'call', id: 1, global: 'tools', name: 'n'.repeat(100_000), args: {} }));\nconst h = Buffer.alloc(4); h.writeUInt32BE(body.length, 0);\nfs.writeSync(3, Buffer.concat([h, body]));\nawait new Promise((r) => setTimeout(r, 3000));",
      python:
        'import os, asyncio\nos.write(3, (\'{"type":"call","id":1,"global":"tools","name":"%s","args":{}}\\n\' % (\'n\' * 100_000)).encode())\nawait asyncio.sleep(3)',
    },
    // a safety net only, as above
    options: () => ({ ...tools(), timeoutMs: 30_000 }),
    check: (r) => {
      expect(r.error?.kind).toBe('protocol');
      expect(r.error?.message).toMatch(/^program requested an undeclared binding "tools\.n+… \[truncated\]"$/);
      expect(r.error?.message.length).toBeLessThanOrEqual(1_200);
    },
    differences: { quickjs: NO_PROCESS, pyodide: NO_FD3 },
  },
  {
    name: "rebinding __main__'s BaseException and SystemExit reaches only the program's own module",
    programs: {
      python:
        "import __main__\n__main__.BaseException = None\n__main__.SystemExit = None\nprint('before')\nraise ValueError('boom')",
    },
    check: (r) => {
      expect(r.error).toMatchObject({
        kind: 'exception',
        message: expect.stringMatching(/ValueError: boom$/),
        location: { line: 5 },
      });
      expect(r.logs).toEqual(['before']);
    },
  },
  {
    name: "nulling every global of the runtime's modules (reached through exposed functions) still settles with logs and value",
    programs: {
      python:
        "import sys\nprint('partial', end='')\nsink = sys.stdout.buffer\ntype(sink)._line = None\nsink._emit = None\nfor g in (__builtins__['__import__'].__globals__, tools.echo.__globals__, tools.echo.__globals__['encode'].__globals__, type(sink).write.__globals__):\n    for k in list(g):\n        if not k.startswith('__'):\n            g[k] = None\nreturn {'ok': [1, 'two', 'é']}",
      typescript:
        "console.log('partial');\nfor (const k of ['JSON', 'Error', 'Object', 'Array', 'String', 'Promise', 'Map', 'Set', 'Reflect', 'Buffer', 'process']) (globalThis as any)[k] = null;\nreturn { ok: [1, 'two', 'é'] };",
    },
    options: tools,
    check: (r) => {
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual({ ok: [1, 'two', 'é'] });
      expect(r.logs).toEqual(['partial']);
    },
    differences: {
      pyodide: {
        why: "the pump loop runs on the runner's module globals: the program breaks it, and the run ends as one exception saying so",
        check: (r) =>
          expect(r.error).toEqual({
            kind: 'exception',
            message: "the program broke the pyodide engine's event loop: TypeError",
          }),
      },
    },
  },
  {
    name: 'a program that breaks the runtime state its settlement needs still gets one result, without runtime paths',
    programs: {
      python:
        "import sys\nledger = sys.stdout.buffer._budget.__self__\nsys.stdout.write('tail')\nledger.count = 'x'\nreturn 1",
    },
    check: (r) => {
      expect(r.error).toEqual({
        kind: 'exception',
        message: 'the program broke the Python runner while the run was settling (TypeError)',
      });
      expect(r.logs.join('\n')).not.toMatch(/ptc_|\.py"|Traceback/);
    },
    differences: {
      pyodide: {
        why: 'the same single result, worded by the pyodide runner',
        check: (r) =>
          expect(r.error).toEqual({
            kind: 'exception',
            message: "the program broke the pyodide engine's event loop: TypeError",
          }),
      },
    },
  },
  {
    name: 'a 100 MiB print under a 192 MB memory limit is output-limit keeping the fitting prefix',
    programs: {
      typescript: "console.log('x'.repeat(100 * 1024 * 1024));\nreturn 1;",
      python: "print('x' * (100 * 1024 * 1024))\nreturn 1",
    },
    // a 16 MiB cap keeps the test quick on a loaded machine; the 100 MB of text is what must not be copied whole
    options: () => ({ memoryMb: 192, maxOutputBytes: 16 * 1024 * 1024 }),
    check: (r) => {
      expect(r.error).toEqual({ kind: 'output-limit', message: 'outer output exceeded 16777216 bytes' });
      expect(r.logs).toHaveLength(1);
      expect(r.logs[0]?.length).toBeGreaterThan(16_700_000);
      expect(r.logs[0]?.replaceAll('x', '')).toBe('');
      expect(
        Buffer.byteLength(JSON.stringify(r.logs)) + Buffer.byteLength(JSON.stringify(r.error?.message)),
      ).toBeLessThanOrEqual(16_777_216);
    },
    differences: { quickjs: OUTSIDE_GUEST_MEMORY, pyodide: OUTSIDE_GUEST_MEMORY },
  },
  {
    name: 'an unterminated tail of 33 million emoji is output-limit keeping a prefix cut on a code point',
    programs: {
      typescript: "process.stdout.write('😀'.repeat(33_000_000));\nreturn 1;",
      python: "import sys\nsys.stdout.write('😀' * 33_000_000)\nreturn 1",
    },
    // an 8 MiB cap keeps the test quick; the 132 MB of text is what must not be copied whole
    options: () => ({ maxOutputBytes: 8 * 1024 * 1024 }),
    check: (r) => {
      expect(r.error?.kind).toBe('output-limit');
      expect(r.logs).toHaveLength(1);
      // 4 bytes each: the prefix is the cap's worth, less the diagnostic's room
      expect(r.logs[0]?.length).toBeGreaterThan(2 * 2_090_000);
      expect(r.logs[0]?.replaceAll('😀', '')).toBe('');
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'a 150 MiB bytes write to stdout under a 256 MB memory limit is output-limit keeping the fitting prefix',
    programs: { python: "import sys\nsys.stdout.buffer.write(b'z' * (150 * 1024 * 1024))\nreturn 1" },
    options: () => ({ memoryMb: 256, maxOutputBytes: 16 * 1024 * 1024 }),
    check: (r) => {
      expect(r.error?.kind).toBe('output-limit');
      expect(r.logs[0]?.length).toBeGreaterThan(16_700_000);
    },
    differences: { pyodide: OUTSIDE_GUEST_MEMORY },
  },
  {
    name: 'a flushed fragment written right before a hang is kept',
    programs: {
      typescript: "process.stdout.write('partial');\nprocess.stdout.write(' line');\nwhile (true) {}",
      python: "print('partial', end='', flush=True)\nprint(' line', end='', flush=True)\nwhile True:\n    pass",
    },
    // the deadline must leave a loaded machine time to reach the prints (1.5 s ended a Python run at load 15 before
    // it printed anything: logs [] is then the right answer to the wrong question)
    options: () => ({ timeoutMs: 4_000 }),
    check: (r) => {
      expect(r.error?.kind).toBe('timeout');
      expect(r.logs).toEqual(['partial line']);
    },
    differences: { quickjs: NO_PROCESS, pyodide: LOST_BEFORE_SPIN },
  },
  {
    name: 'a flushed fragment before a never-settling await is kept',
    programs: {
      typescript: "process.stdout.write('waiting');\nawait new Promise(() => {});",
      python: "import asyncio\nprint('waiting', end='', flush=True)\nawait asyncio.get_running_loop().create_future()",
    },
    // as above: time to reach the print on a loaded machine (this row on pyodide timed out before it at load 18)
    options: () => ({ timeoutMs: 4_000 }),
    check: (r) => {
      expect(r.error?.kind).toBe('timeout');
      expect(r.logs).toEqual(['waiting']);
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: 'a flushed fragment and the rest of its line are one entry, streamed once',
    programs: {
      typescript:
        "process.stdout.write('a');\nconsole.log('b');\nconsole.error('e');\nprocess.stdout.write('c');\nreturn 1;",
      python:
        "import sys\nprint('a', end='', flush=True)\nprint('b')\nprint('e', file=sys.stderr)\nprint('c', end='', flush=True)\nreturn 1",
    },
    check: (r) => {
      expect(r.logs).toEqual(['ab', 'e', 'c']);
      expect(r.stderrLogs).toEqual([1]);
    },
    differences: { quickjs: NO_PROCESS },
  },
  {
    name: "text left buffered in the process's own stdio objects reaches the logs before the run settles",
    programs: {
      python:
        "import sys, os\nsys.__stdout__.reconfigure(write_through=False)\nsys.__stdout__.write('reconfigured\\n')\nf = open(1, 'w', closefd=False)\nf.write('own file\\n')\nb = os.fdopen(2, 'wb', closefd=False)\nb.write(b'own bytes\\n')\nreturn 1",
    },
    check: (r) => {
      expect(r.value).toBe(1);
      expect([...r.logs].sort()).toEqual(['own bytes', 'own file', 'reconfigured']);
    },
  },
  {
    name: 'buffered stdio text is flushed before an uncaught exception is reported',
    programs: {
      python:
        "import sys\nsys.__stdout__.reconfigure(write_through=False)\nsys.__stdout__.write('before raising\\n')\nraise ValueError('x')",
    },
    check: (r) => {
      expect(r.error?.kind).toBe('exception');
      expect(r.logs).toEqual(['before raising']);
    },
  },
  {
    name: 'buffered stdio text is flushed before sys.exit ends the process',
    programs: {
      python:
        "import sys\nsys.__stdout__.reconfigure(write_through=False)\nsys.__stdout__.write('before exiting\\n')\nsys.exit(3)",
    },
    check: (r) => {
      expect(r.error).toEqual({ kind: 'worker-exit', message: 'Python process exited before completing (code 3)' });
      expect(r.logs).toEqual(['before exiting']);
    },
    differences: {
      pyodide: {
        why: "the same ending, worded for the engine's process",
        check: (r) => {
          expect(r.error).toEqual({
            kind: 'worker-exit',
            message: 'The pyodide engine process exited before completing (code 3)',
          });
          expect(r.logs).toEqual(['before exiting']);
        },
      },
    },
  },
];

// The no-return convention differs by design (reference §1.4): TypeScript omits value, Python returns null.
export const NO_RETURN: Record<Language, { program: string; check(r: RunResult): void }> = {
  typescript: { program: 'const x = 1;', check: (r) => expect('value' in r).toBe(false) },
  python: { program: 'x = 1', check: (r) => expect(r.value).toBeNull() },
};
