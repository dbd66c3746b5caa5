import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { mapToolResult } from '../../../runtime/bindings/mcp/map-result.js';
import { BindingsModuleError, type BindingsModule } from '../../../runtime/bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import { renderSdk } from '../../../runtime/sdk/index.js';
import { runTs } from '../../helpers/runtime.js';

const SERVER = path.resolve('test/fixtures/mcp/server.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-mcp-test-'));
const modules: BindingsModule[] = [];
afterAll(async () => {
  await Promise.all(modules.map((m) => m.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
// A bindings module whose `fx` namespace is the fixture MCP server; `tag` lets the test find that server's process.
function writeModule(tag: string, extra = ''): string {
  const file = path.join(dir, `mcp-${++counter}.bindings.mjs`);
  fs.writeFileSync(
    file,
    `export default {
  fx: {
    errorClass: { name: 'McpToolError', memberNameProperty: 'tool' },
    mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(SERVER)}, ${JSON.stringify(tag)}], env: { PTC_FIXTURE_GREETING: 'hello from env' } },
    ${extra}
  },
};
`,
  );
  return file;
}

async function load(file: string): Promise<BindingsModule> {
  const m = await loadBindingsModule(file);
  modules.push(m);
  return m;
}

// Pids of live processes whose command line carries `tag`.
function processesTagged(tag: string): string[] {
  return fs.readdirSync('/proc').filter((p) => {
    if (!/^\d+$/.test(p)) return false;
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(tag);
    } catch {
      return false;
    }
  });
}

describe('MCP-backed namespaces (real stdio server)', () => {
  test('tools are listed with their descriptions and schemas, called, and mapped to values and errors', async () => {
    const m = await load(writeModule('ptc-mcp-tag-calls'));
    const fx = m.namespaces.fx;
    expect(Object.keys(fx?.functions ?? {}).sort()).toEqual(['add', 'counter', 'crash', 'explode', 'get-env', 'greet', 'sleep']);
    expect(fx?.functions.greet?.description).toBe('Greets someone in plain text.');
    expect(fx?.functions.add?.input).toMatchObject({ required: ['a', 'b'] });
    const r = await runTs(
      `const out = {};
out.sum = await fx.add({ a: 2, b: 40 });
out.greeting = await fx.greet({ name: 'Ada' });
out.env = await fx['get-env']();
try { await fx.explode(); } catch (e) { out.error = [e instanceof McpToolError, e.name, e.tool, e.message]; }
try { await fx.add({ a: 'two', b: 1 }); } catch (e) { out.refused = e.message; }
return out;`,
      { bindings: namespacesFor(m, 'live') },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({
      sum: { sum: 42 },
      greeting: 'Hello, Ada!',
      env: 'hello from env',
      error: [true, 'McpToolError', 'explode', 'the fixture exploded on purpose'],
      refused: 'invalid arguments for fx.add: $.a: must be number',
    });
    expect(r.calls.map((c) => [c.name, c.ok])).toEqual([
      ['add', true],
      ['greet', true],
      ['get-env', true],
      ['explode', false],
      ['add', false],
    ]);
    // the SDK the model sees declares the server's tools from their schemas
    const sdk = renderSdk(m, 'typescript').declarations;
    expect(sdk).toContain('"get-env"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;');
    expect(sdk).toContain('/** Adds two numbers and returns the sum as structured content. */');
    expect(sdk).toMatch(/add\(args: \{\n {4}a: number;\n {4}b: number;\n {2}\}\): Promise<\{\n {4}sum: number;\n {2}\} & \{ \[key: string\]: JsonValue \}>;/);
  });

  test('the server lives as long as the loaded module (across runs) and is stopped on dispose', async () => {
    const tag = `ptc-mcp-tag-life-${process.pid}`;
    const m = await loadBindingsModule(writeModule(tag));
    try {
      const first = await runTs('return await fx.counter();', { bindings: namespacesFor(m, 'live') });
      const second = await runTs('return await fx.counter();', { bindings: namespacesFor(m, 'live') });
      expect([first.value, second.value]).toEqual(['1', '2']);
      expect(processesTagged(tag)).toHaveLength(1);
    } finally {
      await m.dispose();
    }
    for (let i = 0; i < 100 && processesTagged(tag).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(processesTagged(tag)).toEqual([]);
    // a disposed module's functions fail cleanly instead of restarting the server
    const late = await runTs('try { await fx.counter(); } catch (e) { return e.message; }', { bindings: namespacesFor(m, 'live') });
    expect(late.value).toMatch(/was stopped \(bindings module disposed\)/);
  });

  test('per-tool overrides: a timeout on a slow tool fails that call only; a mock replaces the server in mock mode', async () => {
    const m = await load(
      writeModule('ptc-mcp-tag-over', "functions: { sleep: { timeoutMs: 300 }, greet: { mock: async ({ name }) => 'mock hello ' + name } },"),
    );
    const r = await runTs(
      `const slow = fx.sleep({ ms: 20000 }).then(() => 'answered', (e) => e.message);
const quick = fx.add({ a: 1, b: 1 });
return [await slow, await quick];`,
      { bindings: namespacesFor(m, 'live') },
    );
    expect(r.value).toEqual(['fx.sleep timed out after 300 ms', { sum: 2 }]);
    const mock = await runTs("return await fx.greet({ name: 'Bo' });", { bindings: namespacesFor(m, 'mock') });
    expect(mock.value).toBe('mock hello Bo');
    // the server is still usable after a call was abandoned
    const after = await runTs("return await fx.greet({ name: 'Cy' });", { bindings: namespacesFor(m, 'live') });
    expect(after.value).toBe('Hello, Cy!');
  });

  test('a server that dies fails the call in flight and is restarted by the next call', async () => {
    const m = await load(writeModule('ptc-mcp-tag-crash'));
    const r = await runTs(
      `const before = await fx.counter();
const crash = await fx.crash().then(() => 'answered', (e) => [e instanceof McpToolError, e.message]);
const after = await fx.counter();
return { before, crash, after };`,
      { bindings: namespacesFor(m, 'live') },
    );
    expect(r.error).toBeUndefined();
    const value = r.value as { before: string; crash: [boolean, string]; after: string };
    expect(value.before).toBe('1');
    expect(value.crash[0]).toBe(true);
    expect(value.crash[1]).toMatch(/connection closed/i);
    // a fresh server process: its call counter starts again
    expect(value.after).toBe('1');
  });

  test('a missing server binary fails the load with a clear message naming the namespace and command', async () => {
    const file = path.join(dir, 'missing.bindings.mjs');
    fs.writeFileSync(file, "export default { gone: { mcp: { command: '/nonexistent/mcp-server-binary', args: ['--stdio'] } } };\n");
    const error = await loadBindingsModule(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BindingsModuleError);
    expect((error as Error).message).toMatch(/^gone: MCP server of gone \(\/nonexistent\/mcp-server-binary --stdio\) could not start: .*ENOENT/);
  });

  test('a server that exits at start-up fails the load and shows its stderr', async () => {
    const file = path.join(dir, 'crash.bindings.mjs');
    const crash = path.join(dir, 'crash.mjs');
    fs.writeFileSync(crash, "process.stderr.write('fixture: missing API key\\n'); process.exit(3);\n");
    fs.writeFileSync(file, `export default { crashy: { mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(crash)}] } } };\n`);
    const error = await loadBindingsModule(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/could not start/);
    expect((error as Error).message).toMatch(/server stderr:\nfixture: missing API key/);
  });

  test('an override for a tool the server does not have is rejected', async () => {
    const error = await loadBindingsModule(writeModule('ptc-mcp-tag-bad', 'functions: { nope: { timeoutMs: 5 } },')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(
      /^fx\.functions\.nope: the MCP server has no tool "nope" \(it has: add, counter, crash, explode, get-env, greet, sleep\)/,
    );
  });

  test('tools/call results map to program values', () => {
    expect(
      mapToolResult({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({ ok: true, value: 'a\nb' });
    expect(mapToolResult({ content: [{ type: 'text', text: '{}' }], structuredContent: { x: 1 } })).toEqual({ ok: true, value: { x: 1 } });
    expect(mapToolResult({ content: [] })).toEqual({ ok: true, value: null });
    expect(
      mapToolResult({
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', data: 'AA==', mimeType: 'image/png' },
        ],
      }),
    ).toEqual({
      ok: true,
      value: ['see', { type: 'image', data: 'AA==', mimeType: 'image/png' }],
    });
    expect(mapToolResult({ isError: true, content: [{ type: 'text', text: 'bad input' }] })).toEqual({ ok: false, message: 'bad input' });
    expect(mapToolResult({ isError: true, content: [] })).toEqual({ ok: false, message: 'MCP tool reported an error without a message' });
    expect(mapToolResult('nonsense')).toMatchObject({ ok: false });
  });
});
