// MCP over HTTP in the browser entry (vscode.dev, github.dev), as shipped, in a real browser worker (Debian's
// Chromium): a notebook whose bindings module is JSON gets that module's MCP servers over Streamable HTTP, through the
// desktop's own MCP client. The server is the published reference server (@modelcontextprotocol/server-everything,
// its own `streamableHttp` entry, which answers CORS for any origin), started here; a TypeScript and a Python cell call
// its tools and get what the desktop gets for the same module, call records included. Every way it can go wrong is
// data: a server that is down, one that answers without CORS, an HTTP error, JSON that does not parse, a tool error,
// a server lost between two cells, and a stdio server (a process the browser cannot start).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { run, sharedRuntime } from '../../helpers/runtime.js';
import { chromiumGate } from '../../webview/helpers/browser-gate.js';
import type { LaunchedChromium } from '../../webview/helpers/chromium.mjs';
import { ROOT, runCells, serveExtension, timeless, type CellStep, type CellsReport } from './web-harness.js';

const gate = chromiumGate();
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

// A port nothing listens on (taken from the system, then let go).
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = http.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// The published server over Streamable HTTP on `port`; resolves once it listens.
function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString('utf8');
      if (said.includes('listening on port')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}) before it listened: ${said}`)));
  });
}

// Servers that go wrong the ways a real one can, each on a path of its own: an HTTP error for everything, answers
// without CORS, and an MCP server (JSON-RPC by hand: it must send what no SDK server would) whose `garbled` tool
// answers JSON that does not parse and whose `unavailable` tool answers 503. `POST /control/stop-everything` lets the
// worker end the published server between two cells.
function startFaulty(stopEverything: () => Promise<void>): Promise<{ url: string; close(): Promise<void> }> {
  const cors = (request: http.IncomingMessage): Record<string, string> => ({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, DELETE',
    'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
    'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
  });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/no-cors') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors(request)).end();
      return;
    }
    if (url.pathname === '/control/stop-everything') {
      void stopEverything().then(() => response.writeHead(200, cors(request)).end('stopped'));
      return;
    }
    if (url.pathname === '/status-500') {
      response.writeHead(500, { ...cors(request), 'content-type': 'text/plain' }).end('the database is down');
      return;
    }
    if (url.pathname !== '/garbled' || request.method !== 'POST') {
      response.writeHead(405, cors(request)).end();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string; params?: Record<string, unknown> };
      const json = { ...cors(request), 'content-type': 'application/json' };
      const answer = (result: unknown): void => {
        response.writeHead(200, json).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      };
      if (message.id === undefined) response.writeHead(202, cors(request)).end();
      else if (message.method === 'initialize')
        answer({
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'faulty', version: '1.0.0' },
        });
      else if (message.method === 'tools/list')
        answer({
          tools: [
            { name: 'garbled', inputSchema: { type: 'object' } },
            { name: 'unavailable', inputSchema: { type: 'object' } },
          ],
        });
      else if (message.params?.name === 'garbled')
        response.writeHead(200, json).end(`{"jsonrpc": "2.0", "id": ${message.id}, "result": {"content": [`);
      else response.writeHead(503, { ...cors(request), 'content-type': 'text/plain' }).end('overloaded');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

// The module both the browser and the desktop load: three of the server's tools, one result mode and one input
// schema overridden (so a bad argument reaches the server, whose own check makes it a tool error).
const everythingModule = (port: number): string =>
  JSON.stringify(
    {
      ev: {
        errorClass: { name: 'EverythingError', memberNameProperty: 'tool' },
        mcp: { url: `http://127.0.0.1:${port}/mcp`, transport: 'streamable-http' },
        include: ['echo', 'get-sum', 'get-structured-content'],
        functions: { echo: { result: 'text' }, 'get-sum': { input: { type: 'object' } } },
      },
    },
    null,
    2,
  );

const TS_PROGRAM = `const echoed = await ev.echo({ message: 'from TypeScript' });
const sum = await ev['get-sum']({ a: 2, b: 3 });
const weather = await ev['get-structured-content']({ location: 'Chicago' });
const refused = await ev['get-sum']({ a: 'two', b: 3 }).catch((e) => ({ name: e.name, tool: e.tool, message: e.message }));
console.log(echoed);
return { echoed, sum, weather: Object.keys(weather).sort(), refused };`;

const PY_PROGRAM = `echoed = await ev.echo({"message": "from Python"})
try:
    await ev["get-sum"]({"a": "two", "b": 3})
    refused = None
except EverythingError as e:
    refused = [type(e).__name__, e.tool, str(e)]
print(echoed)
return {"echoed": echoed, "sum": await ev["get-sum"]({"a": 40, "b": 2}), "refused": refused}`;

const LOST_PROGRAM = `try {
  await ev.echo({ message: 'anyone there?' });
  return 'answered';
} catch (e) {
  return { name: e.name, message: e.message };
}`;

const FAULTS_PROGRAM = `const garbled = await faulty.garbled({}).catch((e) => e.message);
const unavailable = await faulty.unavailable({}).catch((e) => e.message);
return { garbled, unavailable };`;

describe.skipIf(!gate.usable)(gate.title('MCP servers over HTTP in the browser entry'), () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-web-mcp-'));
  let everything: ChildProcess | undefined;
  let faulty: Awaited<ReturnType<typeof startFaulty>> | undefined;
  let served: Awaited<ReturnType<typeof serveExtension>> | undefined;
  let chromium: LaunchedChromium | undefined;
  let report: CellsReport;
  let moduleText = '';
  let downPort = 0;
  const desktop: Record<string, RunResult> = {};
  // the desktop's runtime (disposed after the suite): registered now, not inside a hook
  sharedRuntime();

  beforeAll(async () => {
    const port = await freePort();
    downPort = await freePort();
    everything = await startEverything(port);
    const stopEverything = async (): Promise<void> => {
      const child = everything;
      if (child === undefined || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    };
    faulty = await startFaulty(stopEverything);
    served = await serveExtension();
    moduleText = everythingModule(port);

    // the desktop first, with the same JSON module and the same server: what the browser must match
    const file = path.join(dir, 'everything.bindings.json');
    fs.writeFileSync(file, moduleText);
    const loaded = await loadBindingsModule(file, { onWarning: () => undefined });
    try {
      desktop.ts = await run('typescript', TS_PROGRAM, { bindings: namespacesFor(loaded, 'live') });
      desktop.py = await run('python', PY_PROGRAM, { bindings: namespacesFor(loaded, 'live') });
    } finally {
      await loaded.dispose();
    }

    const json = (value: unknown): string => JSON.stringify(value);
    const files: Record<string, string> = {
      '/ws/mcp/everything.bindings.json': moduleText,
      '/ws/down/down.bindings.json': json({ ev: { mcp: { url: `http://127.0.0.1:${downPort}/mcp` } } }),
      '/ws/nocors/nocors.bindings.json': json({ ev: { mcp: { url: `${faulty.url}/no-cors` } } }),
      '/ws/status/status.bindings.json': json({ ev: { mcp: { url: `${faulty.url}/status-500` } } }),
      '/ws/faulty/faulty.bindings.json': json({
        faulty: { mcp: { url: `${faulty.url}/garbled`, transport: 'streamable-http' } },
      }),
      '/ws/stdio/stdio.bindings.json': json({ local: { mcp: { command: 'node', args: ['server.mjs'] } } }),
      '/ws/bad/bad.bindings.json': '{"ev": {"mcp": ',
    };
    const notebooks: Record<string, unknown> = {};
    for (const where of Object.keys(files))
      notebooks[`${path.posix.dirname(where)}/notebook.ptcnb`] = { bindings: path.posix.basename(where) };
    const steps: CellStep[] = [
      // first, so a connection made by a trusted run cannot hide it
      {
        name: 'restricted',
        notebook: '/ws/mcp/notebook.ptcnb',
        language: 'typescript',
        program: TS_PROGRAM,
        untrusted: true,
      },
      { name: 'ts', notebook: '/ws/mcp/notebook.ptcnb', language: 'typescript', program: TS_PROGRAM },
      { name: 'py', notebook: '/ws/mcp/notebook.ptcnb', language: 'python', program: PY_PROGRAM },
      { name: 'down', notebook: '/ws/down/notebook.ptcnb', language: 'typescript', program: 'return 1;' },
      { name: 'noCors', notebook: '/ws/nocors/notebook.ptcnb', language: 'typescript', program: 'return 1;' },
      { name: 'status', notebook: '/ws/status/notebook.ptcnb', language: 'typescript', program: 'return 1;' },
      { name: 'faults', notebook: '/ws/faulty/notebook.ptcnb', language: 'typescript', program: FAULTS_PROGRAM },
      { name: 'stdio', notebook: '/ws/stdio/notebook.ptcnb', language: 'typescript', program: 'return 1;' },
      { name: 'bad', notebook: '/ws/bad/notebook.ptcnb', language: 'typescript', program: 'return 1;' },
      {
        name: 'lost',
        notebook: '/ws/mcp/notebook.ptcnb',
        language: 'typescript',
        program: LOST_PROGRAM,
        before: `${faulty.url}/control/stop-everything`,
      },
    ];
    ({ report, chromium } = await runCells({
      files,
      extensionUrl: served.url,
      notebooks,
      steps,
      workDir: dir,
    }));
  }, 600_000);

  afterAll(async () => {
    await chromium?.close();
    await served?.close();
    await faulty?.close();
    everything?.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a TypeScript cell calls the server's tools: the desktop's values, errors and call records", () => {
    expect(report.error).toBeUndefined();
    const ts = report.runs.ts;
    expect(ts?.result?.error, ts?.texts.join('\n')).toBeUndefined();
    expect(ts?.success).toBe(true);
    expect(desktop.ts?.error).toBeUndefined();
    const value = ts?.result?.value as { echoed: unknown; sum: unknown; weather: unknown; refused: { name: string } };
    expect(value.echoed).toBe('Echo: from TypeScript');
    expect(value.sum).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
    expect(value.weather).toEqual(['conditions', 'humidity', 'temperature']);
    // the server's own check refused the argument: a tool error, caught as the namespace's error class
    expect(value.refused).toMatchObject({ name: 'EverythingError', tool: 'get-sum' });
    expect(ts?.result?.value).toEqual(desktop.ts?.value);
    expect(ts?.result?.logs).toEqual(['Echo: from TypeScript']);
    expect(ts?.result?.mode).toBe('live');
    // the timeline: the same calls, arguments, answers and failures as on the desktop
    expect(ts?.result?.calls.map((c) => [c.name, c.ok])).toEqual([
      ['echo', true],
      ['get-sum', true],
      ['get-structured-content', true],
      ['get-sum', false],
    ]);
    expect(timeless(ts?.result?.calls ?? [])).toEqual(timeless(desktop.ts?.calls ?? []));
  });

  test("a Python cell calls them too, with the namespace's error class, as on the desktop", () => {
    const py = report.runs.py;
    expect(py?.result?.error, py?.texts.join('\n')).toBeUndefined();
    expect(desktop.py?.error).toBeUndefined();
    expect(py?.result?.value).toMatchObject({
      echoed: 'Echo: from Python',
      sum: [{ type: 'text', text: 'The sum of 40 and 2 is 42.' }],
      refused: ['EverythingError', 'get-sum', expect.any(String)],
    });
    expect(py?.result?.value).toEqual(desktop.py?.value);
    expect(py?.result?.logs).toEqual(['Echo: from Python']);
    expect(timeless(py?.result?.calls ?? [])).toEqual(timeless(desktop.py?.calls ?? []));
  });

  test("the server's tools are listed once per notebook, in the log", () => {
    const listed = report.logs.filter((line) => line.includes('has 3 function(s) from the MCP server'));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain('ev has 3 function(s) from the MCP server at http://127.0.0.1:');
    // in the server's order
    expect(listed[0]?.split(': ').pop()?.split(', ').sort()).toEqual(['echo', 'get-structured-content', 'get-sum']);
  });

  test('a server that is down, answers without CORS or with an HTTP error: the cell says why, naming the server', () => {
    const down = report.runs.down;
    expect(down?.success).toBe(false);
    expect(down?.result).toBeUndefined();
    const said = down?.texts.join('\n') ?? '';
    expect(said).toContain(`ev: MCP server of ev (http://127.0.0.1:${downPort}/mcp) could not start: Failed to fetch`);
    expect(said).toContain('or the server does not allow requests from this origin');
    expect(report.runs.noCors?.texts.join('\n')).toContain('could not start: Failed to fetch');
    const status = report.runs.status?.texts.join('\n') ?? '';
    expect(status).toContain('could not start:');
    expect(status).toContain('(HTTP 500)');
  });

  test('JSON that does not parse and an HTTP error on a call fail that call, as data the program catches', () => {
    const faults = report.runs.faults;
    expect(faults?.result?.error, faults?.texts.join('\n')).toBeUndefined();
    const value = faults?.result?.value as { garbled: string; unavailable: string };
    expect(value.garbled).toContain('the connection to the MCP server of faulty was lost: ');
    expect(value.garbled).toMatch(/JSON/);
    expect(value.unavailable).toContain('(HTTP 503)');
    expect(faults?.result?.calls.map((c) => [c.name, c.ok])).toEqual([
      ['garbled', false],
      ['unavailable', false],
    ]);
  });

  test('a server lost between two cells fails the next call with the reason; the run itself ends normally', () => {
    const lost = report.runs.lost;
    expect(lost?.result?.error).toBeUndefined();
    expect(lost?.result?.value).toMatchObject({ name: 'EverythingError' });
    expect((lost?.result?.value as { message: string }).message).toContain(
      'the connection to the MCP server of ev was lost: Failed to fetch',
    );
    expect(lost?.result?.calls).toMatchObject([{ name: 'echo', ok: false }]);
  });

  test('in Restricted Mode no server is connected: the cell says why and runs nothing', () => {
    const restricted = report.runs.restricted;
    expect(restricted?.success).toBe(false);
    expect(restricted?.result).toBeUndefined();
    expect(restricted?.texts.join('\n')).toContain('not connected in Restricted Mode');
  });

  test('a stdio server, or a module that is not JSON, fails the cell saying why', () => {
    expect(report.runs.stdio?.texts.join('\n')).toContain(
      'local: MCP server of local (node server.mjs) could not start: a stdio server is a process, and a browser starts none',
    );
    expect(report.runs.bad?.texts.join('\n')).toContain('bindings module bad.bindings.json is not valid JSON');
  });
});
