import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BindingsModule } from '../../../runtime/bindings/module-format.js';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import { readJsonBindings, resolveBindings } from '../../../runtime/bindings/module-resolve.js';
import { runTs } from '../../helpers/runtime.js';

// Remote MCP servers: a local HTTP server process built with the SDK's server transports (Streamable HTTP and the
// older HTTP+SSE), reached with a bearer token read from the environment, never written in the module.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-mcp-remote-'));
const TOKEN_VAR = 'PTC_TEST_MCP_TOKEN';
let server: ChildProcess | undefined;
let port = 0;
const modules: BindingsModule[] = [];

beforeAll(async () => {
  server = spawn(process.execPath, [path.resolve('test/fixtures/mcp/http-server.mjs')], {
    env: { ...process.env, PTC_FIXTURE_TOKEN: 'tok-123' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  port = await new Promise<number>((resolve, reject) => {
    server?.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    server?.once('exit', (code) => reject(new Error(`the HTTP fixture exited with ${code}`)));
  });
  process.env[TOKEN_VAR] = 'tok-123';
});
afterAll(async () => {
  await Promise.all(modules.map((m) => m.dispose()));
  server?.kill();
  delete process.env[TOKEN_VAR];
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
async function load(mcp: Record<string, unknown>): Promise<BindingsModule> {
  const file = path.join(dir, `remote-${++counter}.bindings.mjs`);
  fs.writeFileSync(file, `export default { remote: { mcp: ${JSON.stringify(mcp)} } };\n`);
  const m = await loadBindingsModule(file, { onWarning: () => undefined });
  modules.push(m);
  return m;
}

const auth = { Authorization: `Bearer \${env:${TOKEN_VAR}}` };

describe('remote MCP servers', () => {
  test('Streamable HTTP: tools listed and called with structured content and progress, the token from the environment', async () => {
    const m = await load({ url: `http://127.0.0.1:${port}/mcp`, headers: auth });
    const r = await runTs('return [await remote.whoami(), await remote.progress()];', {
      bindings: namespacesFor(m, 'live'),
    });
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([{ transport: 'streamable-http' }, [{ type: 'text', text: 'progressed' }]]);
    expect(r.calls[1]?.progress?.map((p) => [p.progress, p.total])).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  test('a server without Streamable HTTP is reached over HTTP+SSE (auto), or only over SSE when asked', async () => {
    for (const mcp of [
      { url: `http://127.0.0.1:${port}/sse`, headers: auth },
      { url: `http://127.0.0.1:${port}/sse`, headers: auth, transport: 'sse' },
    ]) {
      const m = await load(mcp);
      const r = await runTs('return await remote.whoami();', { bindings: namespacesFor(m, 'live') });
      expect(r.value).toEqual({ transport: 'sse' });
    }
  });

  test('a wrong or missing token fails the load by name, never printing the token', async () => {
    const wrong = await load({
      url: `http://127.0.0.1:${port}/mcp`,
      headers: { Authorization: 'Bearer nope' },
      transport: 'streamable-http',
    }).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(wrong).toMatch(/^remote: MCP server of remote \(http:\/\/127\.0\.0\.1:\d+\/mcp\) could not start: .*401/);
    const missing = await load({
      url: `http://127.0.0.1:${port}/mcp`,
      headers: { Authorization: 'Bearer ${env:PTC_TEST_NO_SUCH_VAR}' },
    }).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(missing).toMatch(
      /could not start: header Authorization needs the environment variable PTC_TEST_NO_SUCH_VAR, which is not set$/,
    );
    expect(`${wrong}${missing}`).not.toContain('tok-123');
  });

  test('a remote module is checked: only http(s) URLs, no stdio keys beside a url', async () => {
    const bad = await load({ url: 'file:///etc/passwd' }).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(bad).toBe('remote.mcp.url: expected an http: or https: URL');
    const mixed = await load({ url: `http://127.0.0.1:${port}/mcp`, command: 'node' }).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(mixed).toBe('remote.mcp.command: unknown key for a remote server (expected url, headers or transport)');
  });

  test('a JSON bindings module names the same servers, read without a bundler; handlers and bad JSON are refused by name', async () => {
    const file = path.join(dir, 'remote.bindings.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        remote: {
          mcp: { url: `http://127.0.0.1:${port}/mcp`, headers: auth },
          functions: { whoami: { timeoutMs: 5000 } },
        },
      }),
    );
    const m = await loadBindingsModule(file, { onWarning: () => undefined });
    modules.push(m);
    const r = await runTs('return await remote.whoami();', { bindings: namespacesFor(m, 'live') });
    expect(r.value).toEqual({ transport: 'streamable-http' });
    expect(() => readJsonBindings('h.bindings.json', '{"tools": {"functions": {"x": {}}}}')).toThrow(
      'tools: a JSON bindings module can only name MCP servers ("mcp"): handlers are code, which needs a .ts or .js module',
    );
    expect(() => readJsonBindings('b.bindings.json', '{"remote": ')).toThrow(
      /^bindings module b\.bindings\.json is not valid JSON: /,
    );
    expect(() => readJsonBindings('a.bindings.json', '[]')).toThrow(
      'bindings module a.bindings.json must be a JSON object (one key per namespace global)',
    );
  });

  test('where no process can start (the browser), a stdio server fails its load saying so; a header reads only the given environment', async () => {
    const options = { onWarning: () => undefined, stdio: undefined, env: {} };
    const stdio = await resolveBindings(
      's.bindings.json',
      { local: { mcp: { command: 'node', args: ['x.mjs'] } } },
      options,
    ).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(stdio).toBe(
      'local: MCP server of local (node x.mjs) could not start: a stdio server is a process, and a browser starts none: in vscode.dev and github.dev a namespace can only name an MCP server over HTTP (`mcp: { url }`)',
    );
    // the token is in this process's environment, but not in the one given
    const headers = await resolveBindings(
      'h.bindings.json',
      { remote: { mcp: { url: `http://127.0.0.1:${port}/mcp`, headers: auth } } },
      options,
    ).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(headers).toContain(`needs the environment variable ${TOKEN_VAR}, which is not set`);
  });

  test('a server that is down fails the load with the cause Node hides behind "fetch failed", said once', async () => {
    // a port nothing listens on: taken from the system, then let go
    const free = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: taken } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(taken));
      });
    });
    const down = await load({ url: `http://127.0.0.1:${free}/mcp`, transport: 'streamable-http' }).then(
      () => 'loaded',
      (e: Error) => e.message,
    );
    expect(down).toMatch(
      new RegExp(
        `^remote: MCP server of remote \\(http://127\\.0\\.0\\.1:${free}/mcp\\) could not start: fetch failed \\(.*ECONNREFUSED[^)]*\\)$`,
      ),
    );
  });
});
