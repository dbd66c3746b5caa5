import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { mapToolResult } from '../../../runtime/bindings/mcp/map-result.js';
import { BindingsModuleError, type BindingsModule } from '../../../runtime/bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import { renderSdk } from '../../../runtime/sdk/index.js';
import { settleTo } from '../../helpers/eventually.js';
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

async function load(file: string, warnings: string[] = []): Promise<BindingsModule> {
  const m = await loadBindingsModule(file, { onWarning: (w) => warnings.push(w) });
  modules.push(m);
  return m;
}

const ALL_TOOLS = [
  'add',
  'bad-schema',
  'big',
  'counter',
  'crash',
  'daemon',
  'explode',
  'get-env',
  'greet',
  'image',
  'json-text',
  'link',
  'mixed',
  'no-structured',
  'progress',
  'rpc-error',
  'sleep',
  'stdout-noise',
  'structured-error',
  'task-only',
];
const CALLABLE = ALL_TOOLS.filter((t) => t !== 'bad-schema' && t !== 'task-only');
const text = (t: string) => [{ type: 'text', text: t }];

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
    const warnings: string[] = [];
    const m = await load(writeModule('ptc-mcp-tag-calls'), warnings);
    const fx = m.namespaces.fx;
    // one bad tool does not disable the server: it is left out, with a warning and its reason
    expect(Object.keys(fx?.functions ?? {}).sort()).toEqual(CALLABLE);
    expect(fx?.unavailable).toEqual({
      'bad-schema': expect.stringMatching(/^its inputSchema: invalid JSON Schema: .*properties\/a\/type/),
      'task-only': 'it can only run as an MCP task, which is not supported',
    });
    expect(warnings).toEqual([
      expect.stringMatching(/^fx\.bad-schema: left out: its inputSchema/),
      'fx.task-only: left out: it can only run as an MCP task, which is not supported',
    ]);
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
      greeting: text('Hello, Ada!'),
      env: text('hello from env'),
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
    expect(sdk).toContain('"get-env"(args?: { [key: string]: JsonValue }): Promise<McpContent[]>;');
    expect(sdk).toContain('/** Adds two numbers and returns the sum as structured content. */');
    expect(sdk).toContain('  // not available: "task-only" (it can only run as an MCP task, which is not supported)');
    expect(sdk).toContain('  readonly code?: number;');
    expect(sdk).toMatch(
      /type McpContent = \{\n {2}annotations\?: JsonValue;\n {2}text: string;\n {2}type: "text";\n\} \| \{/,
    );
    expect(sdk).toMatch(
      /add\(args: \{\n {4}a: number;\n {4}b: number;\n {2}\}\): Promise<\{\n {4}sum: number;\n {2}\} & \{ \[key: string\]: JsonValue \}>;/,
    );
  });

  test('the server lives as long as the loaded module (across runs) and is stopped on dispose', async () => {
    const tag = `ptc-mcp-tag-life-${process.pid}`;
    const m = await loadBindingsModule(writeModule(tag));
    try {
      const first = await runTs('return await fx.counter();', { bindings: namespacesFor(m, 'live') });
      const second = await runTs('return await fx.counter();', { bindings: namespacesFor(m, 'live') });
      expect([first.value, second.value]).toEqual([text('1'), text('2')]);
      expect(processesTagged(tag)).toHaveLength(1);
    } finally {
      await m.dispose();
    }
    expect(await settleTo(() => processesTagged(tag)), 'the MCP server of the disposed module still running').toEqual(
      [],
    );
    // a disposed module's functions fail cleanly instead of restarting the server
    const late = await runTs('try { await fx.counter(); } catch (e) { return e.message; }', {
      bindings: namespacesFor(m, 'live'),
    });
    expect(late.value).toMatch(/was stopped \(bindings module disposed\)/);
  });

  test('per-tool overrides: a timeout on a slow tool fails that call only; a mock replaces the server in mock mode', async () => {
    const m = await load(
      writeModule(
        'ptc-mcp-tag-over',
        "result: 'text', functions: { sleep: { timeoutMs: 300 }, greet: { mock: async ({ name }) => 'mock hello ' + name } },",
      ),
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

  test('a server that dies fails the call in flight with its exit and stderr, and is restarted by the next call', async () => {
    const warnings: string[] = [];
    const m = await load(writeModule('ptc-mcp-tag-crash', "result: 'text',"), warnings);
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
    expect(value.crash[1]).toBe(
      'the connection to the MCP server of fx was lost: the server exited with code 1\nserver stderr (last lines):\nfixture: crashing on purpose',
    );
    // the log gets the same real cause
    expect(warnings).toContain(value.crash[1]);
    // a fresh server process: its call counter starts again
    expect(value.after).toBe('1');
  });

  test('a missing server binary fails the load with a clear message naming the namespace and command', async () => {
    const file = path.join(dir, 'missing.bindings.mjs');
    fs.writeFileSync(
      file,
      "export default { gone: { mcp: { command: '/nonexistent/mcp-server-binary', args: ['--stdio'] } } };\n",
    );
    const error = await loadBindingsModule(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BindingsModuleError);
    expect((error as Error).message).toMatch(
      /^gone: MCP server of gone \(\/nonexistent\/mcp-server-binary --stdio\) could not start: .*ENOENT/,
    );
  });

  test('a server that exits at start-up fails the load and shows its stderr', async () => {
    const file = path.join(dir, 'crash.bindings.mjs');
    const crash = path.join(dir, 'crash.mjs');
    fs.writeFileSync(crash, "process.stderr.write('fixture: missing API key\\n'); process.exit(3);\n");
    fs.writeFileSync(
      file,
      `export default { crashy: { mcp: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(crash)}] } } };\n`,
    );
    const error = await loadBindingsModule(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(/could not start/);
    expect((error as Error).message).toMatch(/server stderr:\nfixture: missing API key/);
  });

  test('an override for a tool the server does not have is rejected', async () => {
    const error = await loadBindingsModule(
      writeModule('ptc-mcp-tag-bad', 'functions: { nope: { timeoutMs: 5 } },'),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toMatch(
      new RegExp(`^fx\\.functions\\.nope: the MCP server has no tool "nope" \\(it has: ${ALL_TOOLS.join(', ')}\\)`),
    );
  });

  test('tools/call results map to one stable shape per result mode', () => {
    const two = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    };
    expect(mapToolResult(two)).toEqual({
      ok: true,
      value: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    });
    expect(mapToolResult(two, 'text')).toEqual({ ok: true, value: 'a\nb' });
    expect(
      mapToolResult({ content: [{ type: 'text', text: '{}' }], structuredContent: { x: 1 } }, 'structured'),
    ).toEqual({ ok: true, value: { x: 1 } });
    expect(mapToolResult({ content: [{ type: 'text', text: '{"x":2}' }] }, 'structured')).toEqual({
      ok: true,
      value: { x: 2 },
    });
    expect(mapToolResult({ content: [{ type: 'text', text: '[1,2]' }] }, 'json')).toEqual({ ok: true, value: [1, 2] });
    expect(mapToolResult({ content: [{ type: 'text', text: 'nope' }] }, 'json')).toMatchObject({
      ok: false,
      message: `result mode 'json': the tool's text is not JSON: "nope"`,
    });
    expect(mapToolResult({ content: [] })).toEqual({ ok: true, value: [] });
    expect(mapToolResult({ content: [] }, 'text')).toEqual({ ok: true, value: '' });
    // a lone image is the same one-item array as an image among other items
    expect(
      mapToolResult({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png', _meta: { x: 1 } }] }),
    ).toEqual({
      ok: true,
      value: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }],
    });
    expect(mapToolResult({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] }, 'text')).toMatchObject({
      ok: false,
      message: "the tool answered image content, which result mode 'text' cannot carry (use 'content')",
    });
    expect(mapToolResult({ content: [{ type: 'image', data: 5 }, 'junk'] })).toEqual({
      ok: true,
      value: [
        { type: 'unknown', original: '{"type":"image","data":5}' },
        { type: 'unknown', original: '"junk"' },
      ],
    });
    expect(mapToolResult({ isError: true, content: [{ type: 'text', text: 'bad input' }] })).toEqual({
      ok: false,
      message: 'bad input',
    });
    expect(mapToolResult({ isError: true, content: [], structuredContent: { retry: 1 } })).toEqual({
      ok: false,
      message: 'the MCP tool reported an error without a message',
      details: { data: { retry: 1 } },
    });
    expect(mapToolResult('nonsense')).toMatchObject({ ok: false });
  });
});
