import { describe, expect, test } from 'vitest';
import { canonicalJson } from '../../../runtime/json/lossless.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';
import { KEPT_CALLS } from '../../../runtime/protocol/run-result.js';
import { eventually } from '../../helpers/eventually.js';
import { deepArray, runTs, toolsNamespace } from '../../helpers/runtime.js';

describe.concurrent('TypeScript backend: bindings', () => {
  test('binding values come back and every call is recorded in order', async () => {
    const r = await runTs(
      "const a = await tools.add({ a: 1, b: 2 });\nconst b = await tools.echo({ x: [1, 'two', null] });\nreturn { a, b };",
      {
        bindings: [toolsNamespace()],
      },
    );
    expect(r.value).toEqual({ a: 3, b: { x: [1, 'two', null] } });
    expect(r.calls.map((c) => [c.id, c.global, c.name, c.ok])).toEqual([
      [1, 'tools', 'add', true],
      [2, 'tools', 'echo', true],
    ]);
    expect(r.calls[0]).toMatchObject({ args: { a: 1, b: 2 }, value: 3 });
    expect(r.calls[0]?.startedAtMs).toBeGreaterThan(0);
  });

  test('a host throw reaches the program as the namespace error class', async () => {
    const r = await runTs(
      'try { await tools.fail({}); } catch (e) {\n  return { isClass: e instanceof ToolCallError, isError: e instanceof Error, name: e.name, tool: (e as any).toolName, message: e.message };\n}',
      { bindings: [toolsNamespace()] },
    );
    expect(r.value).toEqual({
      isClass: true,
      isError: true,
      name: 'ToolCallError',
      tool: 'fail',
      message: 'tool exploded',
    });
    expect(r.calls[0]).toMatchObject({ ok: false, message: 'tool exploded' });
  });

  test('a raw string throw keeps its text; a namespace without errorClass rejects with a plain Error', async () => {
    const ns = { ...toolsNamespace(), global: 'helpers' } as ReturnType<typeof toolsNamespace>;
    delete (ns as { errorClass?: unknown }).errorClass;
    const r = await runTs(
      'try { await helpers.failString({}); } catch (e) { return { ctor: e.constructor === Error, message: e.message }; }',
      {
        bindings: [ns],
      },
    );
    expect(r.value).toEqual({ ctor: true, message: 'raw string failure' });
  });

  test('an uncaught binding failure fails the run with the error class in the message', async () => {
    const r = await runTs('await tools.fail({});', { bindings: [toolsNamespace()] });
    expect(r.error?.kind).toBe('exception');
    expect(r.error?.message).toMatch(/^ToolCallError: tool exploded/);
    expect(r.error?.location?.line).toBe(1);
  });

  test('a non-lossless host resolution becomes a failed call, and the run still completes', async () => {
    const r = await runTs("try { await tools.lossy({}); return 'no'; } catch (e) { return e.message; }", {
      bindings: [toolsNamespace()],
    });
    expect(r.value).toMatch(/binding resolution must be lossless JSON/);
  });

  test('lossy arguments are rejected in the program before any call is made', async () => {
    const r = await runTs('try { await tools.echo({ n: NaN }); } catch (e) { return e.message; }', {
      bindings: [toolsNamespace()],
    });
    expect(r.value).toMatch(/arguments to tools\.echo must be lossless JSON/);
    expect(r.calls).toHaveLength(0);
  });

  test('exotic function names (__proto__, constructor, my-tool) are ordinary own functions', async () => {
    const bindings = [
      toolsNamespace({
        __proto__: async () => 'proto',
        constructor: async () => 'ctor',
        'my-tool': async () => 'dash',
      } as never),
    ];
    const functions = bindings[0]!.functions;
    Object.defineProperty(functions, '__proto__', { value: async () => 'proto', enumerable: true });
    const r = await runTs(
      "return [await tools['__proto__']({}), await tools.constructor({}), await tools['my-tool']({}), Object.getPrototypeOf(tools), typeof (tools as any).toString];",
      { bindings },
    );
    expect(r.value).toEqual(['proto', 'ctor', 'dash', null, 'undefined']);
  });

  test('10 000-deep values cross as argument, resolution and completion', async () => {
    const r = await runTs(
      "let v: unknown = 'leaf';\nfor (let i = 0; i < 10_000; i++) v = [v];\nreturn await tools.echo(v as any);",
      {
        bindings: [toolsNamespace()],
      },
    );
    expect(r.error).toBeUndefined();
    expect(canonicalJson(r.value as JsonValue)).toBe(canonicalJson(deepArray(10_000) as JsonValue));
  });

  test('Promise.all over 10 000 calls works; the rest queue behind maxPendingCalls', async () => {
    let peak = 0;
    let now = 0;
    const counting = toolsNamespace({
      inc: async (args: { i: number }) => {
        now++;
        peak = Math.max(peak, now);
        await new Promise((r) => setImmediate(r));
        now--;
        return args.i;
      },
    });
    const r = await runTs(
      'const xs = await Promise.all(Array.from({ length: 10_000 }, (_, i) => tools.inc({ i })));\nreturn xs.reduce((a, b) => a + b, 0);',
      {
        bindings: [counting],
        maxPendingCalls: 64,
      },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toBe((9_999 * 10_000) / 2);
    // the result keeps the first KEPT_CALLS calls one by one and counts all of them
    expect(r.calls).toHaveLength(KEPT_CALLS);
    expect(r.callSummary).toMatchObject({
      total: 10_000,
      byBinding: [{ global: 'tools', name: 'inc', calls: 10_000, ok: 10_000, failed: 0 }],
    });
    expect(peak).toBeLessThanOrEqual(64);
    expect(peak).toBeGreaterThan(1);
  });

  test('a late binding resolution after settlement is dropped harmlessly', async () => {
    let resolvedLate = false;
    const slow = (args: { ms: number }) =>
      new Promise((resolve) =>
        setTimeout(() => {
          resolvedLate = true;
          resolve('slow done');
        }, args.ms),
      );
    const r = await runTs("tools.slow({ ms: 300 });\nreturn 'early';", { bindings: [toolsNamespace({ slow })] });
    expect(r.value).toBe('early');
    // the handler's answer arrives after the run settled, while this test still runs: nothing may throw or hang
    await eventually('the slow handler to resolve after the run', () => resolvedLate);
  });

  test('a program writing garbage to the control descriptor is a protocol failure', async () => {
    const r = await runTs(
      "const fs = await import('node:fs');\nconst b = Buffer.alloc(8); b.writeUInt32BE(4, 0); b.write('nope', 4);\nfs.writeSync(3, b);\nawait new Promise((r) => setTimeout(r, 1000));",
      { timeoutMs: 5_000 },
    );
    expect(r.error?.kind).toBe('protocol');
  });

  test('a forged call to an undeclared binding is a protocol failure and runs no handler', async () => {
    let ran = false;
    const r = await runTs(
      "const fs = await import('node:fs');\nconst body = Buffer.from(JSON.stringify({ type: 'call', id: 1, global: 'tools', name: 'secret', args: {} }));\nconst h = Buffer.alloc(4); h.writeUInt32BE(body.length, 0);\nfs.writeSync(3, Buffer.concat([h, body]));\nawait new Promise((r) => setTimeout(r, 1000));",
      { bindings: [toolsNamespace({ echo: async () => ((ran = true), 1) })], timeoutMs: 5_000 },
    );
    expect(r.error).toMatchObject({ kind: 'protocol' });
    expect(r.error?.message).toMatch(/undeclared binding/);
    expect(ran).toBe(false);
  });

  test('a huge length header on the control descriptor is a protocol failure', async () => {
    const r = await runTs(
      "const fs = await import('node:fs');\nconst h = Buffer.alloc(4); h.writeUInt32BE(0xffffffff, 0);\nfs.writeSync(3, h);\nawait new Promise((r) => setTimeout(r, 1000));",
      { timeoutMs: 5_000 },
    );
    expect(r.error?.kind).toBe('protocol');
  });
});
