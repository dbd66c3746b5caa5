import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BindingsModuleError, type BindingsModule } from '../../../runtime/bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import { runTs } from '../../helpers/runtime.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bindings-test-'));
const loaded: BindingsModule[] = [];
let badModules = 0;
afterAll(async () => {
  await Promise.all(loaded.map((m) => m.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function load(name: string, source: string): Promise<BindingsModule> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  const module = await loadBindingsModule(file);
  loaded.push(module);
  return module;
}

// A .ts module written with the typed helper, a relative import, schemas, and one function per behaviour under test.
const MODULE = `import { defineBindings } from 'ptc-playground/bindings';
import { double } from './helper.js';

interface AddArgs { a: number; b: number }

export default defineBindings({
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      add: {
        description: 'Add two numbers.',
        input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
        output: { type: 'number' },
        mock: async ({ a, b }: AddArgs) => a + b,
        live: async ({ a, b }: AddArgs) => double(a + b),
      },
      liar: { output: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, mock: async () => ({ n: 'not a number' }) },
      explode: async () => { throw new Error('the tool exploded'); },
      throwString: async () => { throw 'a bare string'; },
      syncThrow: () => { throw new TypeError('thrown synchronously'); },
      hang: { timeoutMs: 300, mock: () => new Promise(() => {}) },
      quick: async (args: unknown) => ({ echoed: args }),
      nonJson: async () => ({ when: new Date(0) }),
      nan: async () => Number.NaN,
      fn: async () => () => 1,
      list: { input: { type: 'object', properties: { max: { type: 'integer' } } }, mock: async (args: { max?: number }) => ({ got: args }) },
      sync: (args: { x: number }) => args.x * 2,
    },
  },
});
`;

async function toolsModule(): Promise<BindingsModule> {
  fs.writeFileSync(path.join(dir, 'helper.ts'), 'export const double = (n: number): number => n * 2;\n');
  return load('tools.bindings.ts', MODULE);
}

describe('bindings modules', () => {
  test('a .ts module written with defineBindings loads, bundles its relative imports and serves mock and live', async () => {
    const module = await toolsModule();
    expect(Object.keys(module.namespaces)).toEqual(['tools']);
    expect(module.namespaces.tools?.functions.add?.description).toBe('Add two numbers.');
    const mock = await runTs('return await tools.add({ a: 2, b: 3 });', { bindings: namespacesFor(module, 'mock') });
    const live = await runTs('return await tools.add({ a: 2, b: 3 });', { bindings: namespacesFor(module, 'live') });
    expect([mock.value, live.value]).toEqual([5, 10]);
    // a synchronous handler and an omitted argument (object schema without required keys) both work
    const r = await runTs('return [await tools.sync({ x: 4 }), await tools.list()];', {
      bindings: namespacesFor(module, 'mock'),
    });
    expect(r.value).toEqual([8, { got: {} }]);
  });

  test.each([
    [
      'a function that is not a handler',
      'export default { tools: { functions: { add: 42 } } };',
      /^tools\.functions\.add: expected a handler function/,
    ],
    [
      'an unknown function key',
      'export default { tools: { functions: { add: { mock: async () => 1, latency: 5 } } } };',
      /^tools\.functions\.add\.latency: unknown key/,
    ],
    [
      'an invalid JSON Schema',
      "export default { tools: { functions: { add: { input: { type: 'nope' }, mock: async () => 1 } } } };",
      /^tools\.functions\.add\.input: invalid JSON Schema/,
    ],
    [
      'a bad failRate',
      'export default { tools: { functions: { add: { failRate: 2, mock: async () => 1 } } } };',
      /^tools\.functions\.add\.failRate: expected a number between 0 and 1/,
    ],
    [
      'a bad timeout',
      'export default { tools: { functions: { add: { timeoutMs: -1, mock: async () => 1 } } } };',
      /^tools\.functions\.add\.timeoutMs: expected a positive integer/,
    ],
    [
      'a missing handler',
      "export default { tools: { functions: { add: { description: 'x' } } } };",
      /^tools\.functions\.add: needs a mock or a live handler/,
    ],
    [
      'a bad error class',
      "export default { tools: { errorClass: { name: 'E' }, functions: {} } };",
      /^tools\.errorClass: expected/,
    ],
    [
      'a global that is not a portable identifier',
      'export default { class: { functions: {} } };',
      /^class: not usable as a program global: "class" is a JavaScript or Python reserved word/,
    ],
    [
      'an error class owned by the runtime',
      "export default { tools: { errorClass: { name: 'Error', memberNameProperty: 'tool' }, functions: {} } };",
      /^tools\.errorClass\.name: "Error" is owned by the runtime/,
    ],
    [
      'a clashing error member',
      "export default { tools: { errorClass: { name: 'ToolError', memberNameProperty: 'message' }, functions: {} } };",
      /^tools\.errorClass\.memberNameProperty: "message" collides/,
    ],
    [
      'an error class named like a global',
      "export default { tools: { functions: {} }, web: { errorClass: { name: 'tools', memberNameProperty: 'tool' }, functions: {} } };",
      /^web\.errorClass\.name: "tools" collides with another global or error class/,
    ],
    ['no default export', 'export const tools = {};', /must default-export a plain object/],
    // the located file is absolute, so the editor can link it whatever the working directory
    ['a syntax error', 'export default {', /failed to load: \/\S*\/bad-\d+\.ts:1:\d+: /],
  ])('an invalid module (%s) fails to load naming the offending key', async (_label, source, pattern) => {
    const file = path.join(dir, `bad-${++badModules}.ts`);
    fs.writeFileSync(file, source);
    const error = await loadBindingsModule(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BindingsModuleError);
    expect((error as Error).message).toMatch(pattern);
  });

  test('arguments failing the input schema reject before the handler runs, one line per issue', async () => {
    const module = await toolsModule();
    const r = await runTs(
      `try { await tools.add({ a: 'one', c: 3 }); return 'no'; } catch (e) { return { is: e instanceof ToolCallError, name: e.name, tool: e.toolName, message: e.message }; }`,
      { bindings: namespacesFor(module, 'mock') },
    );
    expect(r.value).toEqual({
      is: true,
      name: 'ToolCallError',
      tool: 'add',
      message: [
        'invalid arguments for tools.add: $.b: is required',
        'invalid arguments for tools.add: $.c: is not allowed',
        'invalid arguments for tools.add: $.a: must be number',
      ].join('\n'),
    });
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^invalid arguments for tools\.add: /),
    });
    // the success case: valid arguments reach the handler
    const ok = await runTs('return await tools.add({ a: 1, b: 2 });', { bindings: namespacesFor(module, 'mock') });
    expect(ok.value).toBe(3);
  });

  test('a result violating the output schema is passed on but marked in the call record and warned about', async () => {
    const module = await toolsModule();
    const warnings: string[] = [];
    const r = await runTs('return [await tools.liar(), await tools.add({ a: 1, b: 1 })];', {
      bindings: namespacesFor(module, 'mock', { onWarning: (w) => warnings.push(w) }),
    });
    expect(r.value).toEqual([{ n: 'not a number' }, 2]);
    expect(r.calls[0]).toMatchObject({ ok: true, schemaViolation: '$.n: must be number' });
    expect(r.calls[1]?.schemaViolation).toBeUndefined();
    expect(warnings).toEqual(['tools.liar returned a value that violates its output schema: $.n: must be number']);
  });

  test('a throwing handler rejects with the namespace error class carrying the tool name and message', async () => {
    const module = await toolsModule();
    const r = await runTs(
      `const out = [];
for (const name of ['explode', 'throwString', 'syncThrow']) {
  try { await tools[name](); } catch (e) { out.push([e instanceof ToolCallError, e instanceof Error, e.name, e.toolName, e.message]); }
}
return out;`,
      { bindings: namespacesFor(module, 'mock') },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([
      [true, true, 'ToolCallError', 'explode', 'the tool exploded'],
      [true, true, 'ToolCallError', 'throwString', 'a bare string'],
      [true, true, 'ToolCallError', 'syncThrow', 'thrown synchronously'],
    ]);
    expect(r.calls.map((c) => [c.ok, c.message])).toEqual([
      [false, 'the tool exploded'],
      [false, 'a bare string'],
      [false, 'thrown synchronously'],
    ]);
  });

  test('a hanging handler fails at its per-call timeout without blocking other calls', async () => {
    const module = await toolsModule();
    const r = await runTs(
      `const order = [];
const hung = tools.hang().then(() => 'answered', (e) => { order.push('hang'); return e.message; });
const quick = tools.quick({ i: 1 }).then((v) => { order.push('quick'); return v; });
return { results: await Promise.all([hung, quick]), order };`,
      { bindings: namespacesFor(module, 'mock') },
    );
    expect(r.value).toEqual({
      results: ['tools.hang timed out after 300 ms', { echoed: { i: 1 } }],
      order: ['quick', 'hang'],
    });
    expect(r.calls[0]).toMatchObject({ name: 'hang', ok: false, message: 'tools.hang timed out after 300 ms' });
    expect(r.calls[0]?.durationMs).toBeGreaterThanOrEqual(250);
  });

  test("a timed-out handler's signal aborts, so live handlers can cancel their work", async () => {
    const marker = path.join(dir, 'aborted.txt');
    const module = await load(
      'signal.bindings.mjs',
      `import fs from 'node:fs';
export default { tools: { functions: { watch: { timeoutMs: 200, mock: (_args, { signal }) => new Promise(() => {
  signal.addEventListener('abort', () => fs.writeFileSync(${JSON.stringify(marker)}, signal.reason.message));
}) } } } };
`,
    );
    const r = await runTs('try { await tools.watch(); } catch (e) { return e.message; }', {
      bindings: namespacesFor(module, 'mock'),
    });
    expect(r.value).toBe('tools.watch timed out after 200 ms');
    expect(fs.readFileSync(marker, 'utf8')).toBe('tools.watch timed out after 200 ms');
  });

  test('the default per-call timeout applies to functions without their own', async () => {
    const module = await load(
      'slow.bindings.mjs',
      'export default { tools: { functions: { wait: () => new Promise(() => {}), ok: async () => 1 } } };',
    );
    const r = await runTs('try { await tools.wait(); } catch (e) { return [e.message, await tools.ok()]; }', {
      bindings: namespacesFor(module, 'mock', { defaultTimeoutMs: 200 }),
    });
    expect(r.value).toEqual(['tools.wait timed out after 200 ms', 1]);
  });

  test('a handler result that is not lossless JSON becomes a failed call', async () => {
    const module = await toolsModule();
    const r = await runTs(
      `const out = [];
for (const name of ['nonJson', 'nan', 'fn']) { try { out.push(await tools[name]()); } catch (e) { out.push(e.name + ': ' + e.message); } }
return out;`,
      { bindings: namespacesFor(module, 'mock') },
    );
    expect(r.error).toBeUndefined();
    const out = r.value as string[];
    expect(out).toHaveLength(3);
    for (const [i, name] of ['nonJson', 'nan', 'fn'].entries())
      expect(out[i]).toMatch(
        new RegExp(`^ToolCallError: tools\\.${name} returned a value that is not lossless JSON: `),
      );
    expect(r.calls.every((c) => !c.ok)).toBe(true);
  });
});
