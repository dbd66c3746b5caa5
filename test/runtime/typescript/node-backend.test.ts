import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../../runtime/json/lossless.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';
import { deepArray, runTs, toolsNamespace } from '../../helpers/runtime.js';

describe.concurrent('TypeScript backend: programs, values and logs', () => {
  test('runs erasable TypeScript and returns its value', async () => {
    const r = await runTs(
      'const x: number = 40;\ninterface P { a: number }\nconst p = { a: 2 } satisfies P;\nreturn x + p.a;',
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toBe(42);
    expect(r.language).toBe('typescript');
  });

  test('keeps logs in order: console, object inspection, partial stream writes, stderr marked', async () => {
    const r = await runTs(
      "console.log('a', { b: 1 });\nprocess.stdout.write('par');\nprocess.stdout.write('tial\\n');\nconsole.warn('careful');\nconsole.log('');\nreturn 1;",
    );
    expect(r.logs).toEqual(['a { b: 1 }', 'partial', 'careful', '']);
    expect(r.stderrLogs).toEqual([2]);
  });

  test('an unterminated stream write is flushed as its own entry', async () => {
    const r = await runTs("process.stdout.write('no newline');");
    expect(r.logs).toEqual(['no newline']);
  });

  test('native fd writes land in logs too', async () => {
    const r = await runTs(
      "const fs = await import('node:fs');\nfs.writeSync(1, 'raw €\\n');\nfs.writeSync(2, 'err 😀\\n');\nreturn 0;",
    );
    expect(r.logs).toContain('raw €');
    expect(r.logs).toContain('err 😀');
  });

  test('no return gives no value key; return null gives null', async () => {
    const none = await runTs('const x = 1;');
    expect('value' in none).toBe(false);
    expect(none.error).toBeUndefined();
    const nul = await runTs('return null;');
    expect(nul.value).toBeNull();
  });

  test('the program sees an empty environment and stdin at EOF', async () => {
    const r = await runTs(
      "const fs = await import('node:fs');\nconst buf = Buffer.alloc(16);\nlet n = -1;\ntry { n = fs.readSync(0, buf, 0, 16, null); } catch (e) { n = -2; }\nreturn { env: { ...process.env }, keys: Object.keys(process.env).length, n };",
    );
    expect(r.value).toEqual({ env: {}, keys: 0, n: 0 });
  });

  test('awaiting a stream write callback completes and the chunk is captured', async () => {
    const r = await runTs(
      "await new Promise<void>((res) => process.stdout.write('cb\\n', () => res()));\nreturn 'after';",
    );
    expect(r.logs).toEqual(['cb']);
    expect(r.value).toBe('after');
  });

  test('runs are isolated: globals from one run are absent in the next', async () => {
    await runTs('(globalThis as any).leak = 1; return 1;');
    const r = await runTs('return typeof (globalThis as any).leak;');
    expect(r.value).toBe('undefined');
  });

  test('50 000-element arrays and 10 000-deep values return exactly', async () => {
    const wide = await runTs('return Array.from({ length: 50_000 }, (_, i) => i);');
    expect((wide.value as number[]).length).toBe(50_000);
    expect((wide.value as number[])[49_999]).toBe(49_999);
    const deep = await runTs("let v: unknown = 'leaf';\nfor (let i = 0; i < 10_000; i++) v = [v];\nreturn v;");
    expect(deep.error).toBeUndefined();
    // iterative comparison: a recursive deep-equal would overflow the stack
    expect(canonicalJson(deep.value as JsonValue)).toBe(canonicalJson(deepArray(10_000) as JsonValue));
  });
});

describe.concurrent('TypeScript backend: failures', () => {
  test('non-erasable syntax fails as exception naming the construct, with its location', async () => {
    const r = await runTs('const a = 1;\nenum Color { Red }\nreturn a;');
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).toMatch(/enum/);
    expect(r.error?.location).toEqual({ line: 2, column: 1 });
    const ns = await runTs('namespace N { export const x = 1 }');
    expect(ns.error?.message).toMatch(/namespace/);
    const pp = await runTs('class A { constructor(private x: number) {} }');
    expect(pp.error?.message).toMatch(/parameter property/);
  });

  test('a syntax error points at the line and column', async () => {
    const r = await runTs('const ok = 1;\nconst x = ;');
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.location).toEqual({ line: 2, column: 11 });
  });

  test('an uncaught throw is exception with the program-only stack and location', async () => {
    const r = await runTs(
      "console.log('before');\nfunction inner() {\n  throw new RangeError('bad range');\n}\ninner();",
    );
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).toMatch(/^RangeError: bad range/);
    expect(r.error?.message).toMatch(/program\.ts:3:9/);
    expect(r.error?.message).not.toMatch(/node-child|node:internal/);
    expect(r.error?.location).toEqual({ line: 3, column: 9 });
    expect(r.logs).toEqual(['before']);
  });

  test('throwing a non-Error value is rendered with String()', async () => {
    const r = await runTs("throw 'plain';");
    expect(r.error).toMatchObject({ kind: 'exception', message: 'Uncaught plain' });
  });

  test('an unhandled rejection ends the run as exception', async () => {
    const r = await runTs(
      "Promise.reject(new Error('floating'));\nawait new Promise((r) => setTimeout(r, 200));\nreturn 1;",
    );
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).toMatch(/floating/);
  });

  test.each([
    ['a function', 'return { f: () => 1 };'],
    ['NaN', 'return NaN;'],
    ['-0', 'return -0;'],
    ['undefined inside an object', 'return { v: undefined };'],
    ['a Map', 'return new Map();'],
    ['a cycle', 'const a: any[] = []; a.push(a); return a;'],
    ['a bigint', 'return 10n;'],
  ])('returning %s is invalid-output with the lossless-JSON message', async (_name, program) => {
    const r = await runTs(program);
    expect(r.error?.kind).toBe('invalid-output');
    expect(r.error?.message).toMatch(/program completion must be lossless JSON/);
    expect('value' in r).toBe(false);
  });

  test('process.exit(7) is worker-exit naming code 7', async () => {
    const r = await runTs('process.exit(7);');
    expect(r.error?.kind).toBe('worker-exit');
    expect(r.error?.message).toMatch(/code 7/);
  });

  test('heap exhaustion under a small heap is worker-exit, and the next run succeeds', async () => {
    const r = await runTs(
      'const keep: unknown[] = [];\nwhile (true) keep.push(new Array(100_000).fill({ x: Math.random() }));',
      {
        memoryMb: 32,
        timeoutMs: 30_000,
      },
    );
    expect(r.error?.kind).toBe('worker-exit');
    expect(r.error?.message).toMatch(/heap out of memory/);
    const next = await runTs('return 1;', { memoryMb: 32 });
    expect(next.value).toBe(1);
  });
});

describe.concurrent('TypeScript backend: limits', () => {
  test('a hot loop ends at the deadline and keeps the log written right before it', async () => {
    const r = await runTs("console.log('about to spin');\nwhile (true) {}", { timeoutMs: 3_000 });
    expect(r.error).toEqual({ kind: 'timeout', message: 'execution deadline reached (3000ms)' });
    expect(r.logs).toEqual(['about to spin']);
  });

  test('a never-settling await ends as timeout', async () => {
    const r = await runTs('await new Promise(() => {});', { timeoutMs: 500 });
    expect(r.error?.kind).toBe('timeout');
  });

  test('the deadline keeps running while a binding call is pending', async () => {
    const r = await runTs('await tools.never({});', { timeoutMs: 3_000, bindings: [toolsNamespace()] });
    expect(r.error?.kind).toBe('timeout');
    expect(r.calls).toHaveLength(1);
  });

  test('a log flood is output-limit keeping a prefix that fits the cap', async () => {
    const cap = 2_000;
    const r = await runTs("for (let i = 0; i < 100_000; i++) console.log('line ' + i);\nreturn 'never';", {
      maxOutputBytes: cap,
    });
    expect(r.error).toEqual({ kind: 'output-limit', message: `outer output exceeded ${cap} bytes` });
    expect(r.logs.length).toBeGreaterThan(10);
    expect(
      Buffer.byteLength(JSON.stringify(r.logs)) + Buffer.byteLength(JSON.stringify(r.error?.message)),
    ).toBeLessThanOrEqual(cap);
    expect('value' in r).toBe(false);
  });

  test('a single oversized log is cut to a fitting prefix on a code-point boundary', async () => {
    const r = await runTs("console.log('😀'.repeat(10_000));", { maxOutputBytes: 200 });
    expect(r.error?.kind).toBe('output-limit');
    const first = r.logs[0] ?? '';
    expect(first.length).toBeGreaterThan(0);
    expect(/^(😀)+$/u.test(first)).toBe(true);
  });

  test('native fd floods are metered in the same ledger', async () => {
    const r = await runTs(
      "const fs = await import('node:fs');\nfs.writeSync(1, 'x'.repeat(100_000) + '\\n');\nreturn 1;",
      { maxOutputBytes: 1_000 },
    );
    expect(r.error?.kind).toBe('output-limit');
  });

  test('an oversized return value is output-limit with no value', async () => {
    const r = await runTs("return 'x'.repeat(10_000);", { maxOutputBytes: 1_000 });
    expect(r.error?.kind).toBe('output-limit');
    expect('value' in r).toBe(false);
  });

  test('UTF-8 exact boundary: "€" fits a 7-byte cap and fails a 6-byte cap', async () => {
    expect((await runTs("return '€';", { maxOutputBytes: 7 })).value).toBe('€');
    expect((await runTs("return '€';", { maxOutputBytes: 6 })).error?.kind).toBe('output-limit');
  });

  test('logs and value share one ledger: ["abc"] + "xy" fits 11 bytes, not 10', async () => {
    const program = "console.log('abc');\nreturn 'xy';";
    expect((await runTs(program, { maxOutputBytes: 11 })).value).toBe('xy');
    expect((await runTs(program, { maxOutputBytes: 10 })).error?.kind).toBe('output-limit');
  });

  test('25 MB written one character at a time completes', async () => {
    const r = await runTs("for (let i = 0; i < 25_000_000; i++) process.stdout.write('x');\nreturn 'done';", {
      timeoutMs: 60_000,
    });
    expect(r.error).toBeUndefined();
    expect(r.logs).toHaveLength(1);
    expect(r.logs[0]?.length).toBe(25_000_000);
  });
});

describe('TypeScript backend: exact ledger boundary and heap ceiling', () => {
  test('the 64 MiB default admits exactly a 67 108 860-character string; one more fails', async () => {
    const fits = await runTs("return 'x'.repeat(67_108_860);", { timeoutMs: 60_000 });
    expect(fits.error).toBeUndefined();
    expect((fits.value as string).length).toBe(67_108_860);
    const over = await runTs("return 'x'.repeat(67_108_861);", { timeoutMs: 60_000 });
    expect(over.error?.kind).toBe('output-limit');
  });

  test('memoryMb sets the V8 heap ceiling of the child', async () => {
    const program = "const v8 = await import('node:v8');\nreturn v8.getHeapStatistics().heap_size_limit;";
    const small = (await runTs(program, { memoryMb: 32 })).value as number;
    const large = (await runTs(program, { memoryMb: 64 })).value as number;
    expect(large - small).toBe(32 * 1024 * 1024);
  });
});
