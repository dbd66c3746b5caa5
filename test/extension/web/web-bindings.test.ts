// Code bindings modules in the browser entry (vscode.dev, github.dev), as shipped, in a real browser worker (Debian's
// Chromium): a notebook whose bindings module is code (TypeScript here, stripped by the cells' own step; JavaScript
// with `defineBindings`) runs in mock mode, its handlers in a dedicated bindings worker of their own. A TypeScript and
// a Python cell get what the desktop gets for the same module, call records included; every way a module can go wrong
// is data: a handler that throws or breaks its output schema, one that never settles (its deadline), one in a
// synchronous loop (its worker ended; the next cell is answered by a fresh one), a call that needs approval, a syntax
// error, imports a browser cannot give, a module that throws or never finishes loading, live mode, Restricted Mode.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadBindingsModule, namespacesFor } from '../../../runtime/bindings/module-loader.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { run, sharedRuntime } from '../../helpers/runtime.js';
import { chromiumGate } from '../../webview/helpers/browser-gate.js';
import type { LaunchedChromium } from '../../webview/helpers/chromium.mjs';
import { runCells, serveExtension, timeless, type CellStep, type CellsReport } from './web-harness.js';

const gate = chromiumGate();
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const TOOLS = fs.readFileSync(path.join(FIXTURES, 'tools.bindings.ts'), 'utf8');
const DEFINE = fs.readFileSync(path.join(FIXTURES, 'define.bindings.mjs'), 'utf8');

const TS_PROGRAM = `const found: { hits: number } = await tools.search({ q: 'browser' });
const broken = await tools.broken({}).catch((e) => ({ name: e.name, tool: e.tool, message: e.message }));
const flaky = await tools.flaky({}).catch((e) => e.message);
const slow = await tools.slow({});
const loose = await tools.loose({});
const refused = await tools.search({ q: 42 }).catch((e) => e.message);
console.log('found', found.hits);
return { found, broken, flaky, slow, loose, refused };`;

const PY_PROGRAM = `found = await tools.search({"q": "python"})
try:
    await tools.broken({})
    broken = None
except ToolError as e:
    broken = [type(e).__name__, e.tool, str(e)]
try:
    await tools.flaky({})
    flaky = None
except ToolError as e:
    flaky = str(e)
print("found", found["hits"])
return {"found": found, "broken": broken, "flaky": flaky, "loose": await tools.loose({})}`;

const caught = (call: string): string => `return await ${call}.catch((e) => e.message);`;

// Modules that cannot load, each with what must be said (the desktop's own message where the desktop has one).
const BROKEN_MODULES: Record<string, string> = {
  'syntax.bindings.mjs': 'export default { tools: { functions: { f: { mock: async () => ( } } } };\n',
  'enum.bindings.ts':
    'enum Color {\n  Red,\n}\nexport default { tools: { functions: { f: async () => Color.Red } } };\n',
  'relative.bindings.mjs':
    "import { helper } from './helper.mjs';\nexport default { tools: { functions: { helper } } };\n",
  'builtin.bindings.js':
    "// reads a file\nimport fs from 'node:fs';\nexport default { tools: { functions: { read: async () => fs.readFileSync('x', 'utf8') } } };\n",
  'package.bindings.mjs':
    "import { z } from 'zod';\nexport default { tools: { functions: { z: async () => typeof z } } };\n",
  'invalid.bindings.mjs': "export default { tools: { functions: { f: { mock: 1, color: 'red' } } } };\n",
  'throws.bindings.mjs': "throw new Error('no configuration found');\nexport default {};\n",
  'forever.bindings.mjs': 'await new Promise(() => undefined);\nexport default {};\n',
  'common.bindings.cjs': 'module.exports = {};\n',
};

describe.skipIf(!gate.usable)(gate.title('code bindings modules in the browser entry'), () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-web-bindings-'));
  let served: Awaited<ReturnType<typeof serveExtension>> | undefined;
  let chromium: LaunchedChromium | undefined;
  let report: CellsReport;
  const desktop: Record<string, RunResult> = {};
  // what the desktop says of each broken module
  const desktopLoad: Record<string, string> = {};
  // the desktop's runtime (disposed after the suite): registered now, not inside a hook
  sharedRuntime();

  beforeAll(async () => {
    // the desktop first, with the same module: what the browser must match
    const loaded = await loadBindingsModule(path.join(FIXTURES, 'tools.bindings.ts'), { onWarning: () => undefined });
    try {
      desktop.ts = await run('typescript', TS_PROGRAM, {
        bindings: namespacesFor(loaded, 'mock', { onWarning: () => undefined }),
      });
      desktop.py = await run('python', PY_PROGRAM, {
        bindings: namespacesFor(loaded, 'mock', { onWarning: () => undefined }),
      });
    } finally {
      await loaded.dispose();
    }
    for (const name of ['invalid.bindings.mjs', 'throws.bindings.mjs']) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, BROKEN_MODULES[name] ?? '');
      desktopLoad[name] = await loadBindingsModule(file, { onWarning: () => undefined }).then(
        (module) => {
          void module.dispose();
          return 'loaded';
        },
        (error: unknown) => String((error as Error).message),
      );
    }

    const files: Record<string, string> = {
      '/ws/tools/tools.bindings.ts': TOOLS,
      '/ws/live/tools.bindings.ts': TOOLS,
      '/ws/define/define.bindings.mjs': DEFINE,
      '/ws/reload/reload.bindings.mjs': "export default { r: { functions: { version: async () => 'one' } } };\n",
    };
    for (const [name, text] of Object.entries(BROKEN_MODULES)) files[`/ws/${name.split('.')[0]}/${name}`] = text;
    const notebooks: Record<string, unknown> = {};
    for (const where of Object.keys(files))
      notebooks[`${path.posix.dirname(where)}/notebook.ptcnb`] = { bindings: path.posix.basename(where) };
    notebooks['/ws/live/notebook.ptcnb'] = { bindings: 'tools.bindings.ts', mode: 'live' };
    const tools = '/ws/tools/notebook.ptcnb';
    const steps: CellStep[] = [
      // first, so a worker started by a trusted run cannot hide it
      { name: 'restricted', notebook: tools, language: 'typescript', program: TS_PROGRAM, untrusted: true },
      { name: 'ts', notebook: tools, language: 'typescript', program: TS_PROGRAM },
      { name: 'py', notebook: tools, language: 'python', program: PY_PROGRAM },
      { name: 'hang', notebook: tools, language: 'typescript', program: caught('tools.hang({})') },
      { name: 'spin', notebook: tools, language: 'typescript', program: caught('tools.spin({})') },
      { name: 'after', notebook: tools, language: 'typescript', program: "return await tools.search({ q: 'again' });" },
      {
        name: 'allowed',
        notebook: tools,
        language: 'typescript',
        program: caught("tools.send({ to: 'ada' })"),
        answers: ['Allow'],
      },
      { name: 'denied', notebook: tools, language: 'typescript', program: caught('tools.send({})') },
      { name: 'purge', notebook: tools, language: 'typescript', program: caught('tools.purge({})') },
      {
        name: 'define',
        notebook: '/ws/define/notebook.ptcnb',
        language: 'python',
        program: 'return [await notes.echo({"text": "hi"}), await notes.realm()]',
      },
      {
        name: 'live',
        notebook: '/ws/live/notebook.ptcnb',
        language: 'typescript',
        program: "return await tools.search({ q: 'x' });",
      },
      {
        name: 'reload1',
        notebook: '/ws/reload/notebook.ptcnb',
        language: 'typescript',
        program: 'return await r.version();',
      },
      {
        name: 'reload2',
        notebook: '/ws/reload/notebook.ptcnb',
        language: 'typescript',
        program: 'return await r.version();',
        write: {
          '/ws/reload/reload.bindings.mjs': "export default { r: { functions: { version: async () => 'two' } } };\n",
        },
      },
      ...Object.keys(BROKEN_MODULES).map((name): CellStep => ({
        name,
        notebook: `/ws/${name.split('.')[0]}/notebook.ptcnb`,
        language: 'typescript',
        program: 'return 1;',
        // a load that never finishes is bounded by the cell's deadline
        ...(name === 'forever.bindings.mjs' ? { metadata: { limits: { timeoutMs: 3_000 } } } : {}),
      })),
    ];
    served = await serveExtension();
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
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("a TypeScript cell's calls are answered by the module's mocks: the desktop's values, errors and call records", () => {
    expect(report.error).toBeUndefined();
    const ts = report.runs.ts;
    expect(ts?.result?.error, ts?.texts.join('\n')).toBeUndefined();
    expect(ts?.success).toBe(true);
    expect(desktop.ts?.error).toBeUndefined();
    expect(ts?.result?.value).toEqual({
      found: { hits: 7 },
      broken: { name: 'ToolError', tool: 'broken', message: 'the index is corrupt' },
      flaky: 'the service is down',
      slow: 'late but here',
      loose: { name: 'no id' },
      refused: expect.stringContaining('invalid arguments for tools.search'),
    });
    expect(ts?.result?.value).toEqual(desktop.ts?.value);
    expect(ts?.result?.logs).toEqual(['found 7']);
    expect(ts?.result?.mode).toBe('mock');
    expect(ts?.result?.calls.map((c) => [c.name, c.ok])).toEqual([
      ['search', true],
      ['broken', false],
      ['flaky', false],
      ['slow', true],
      ['loose', true],
      ['search', false],
    ]);
    // the output schema's breach is marked on the call, as on the desktop
    expect(ts?.result?.calls[4]?.schemaViolation).toContain('id');
    expect(timeless(ts?.result?.calls ?? [])).toEqual(timeless(desktop.ts?.calls ?? []));
    // the injected latency was waited
    expect(ts?.result?.calls[3]?.durationMs).toBeGreaterThanOrEqual(25);
  });

  test("a Python cell gets the same, with the namespace's error class", () => {
    const py = report.runs.py;
    expect(py?.result?.error, py?.texts.join('\n')).toBeUndefined();
    expect(desktop.py?.error).toBeUndefined();
    expect(py?.result?.value).toEqual({
      found: { hits: 6 },
      broken: ['ToolError', 'broken', 'the index is corrupt'],
      flaky: 'the service is down',
      loose: { name: 'no id' },
    });
    expect(py?.result?.value).toEqual(desktop.py?.value);
    expect(py?.result?.logs).toEqual(['found 6']);
    expect(timeless(py?.result?.calls ?? [])).toEqual(timeless(desktop.py?.calls ?? []));
  });

  test('a broken output schema is said in the log, named for the module', () => {
    expect(
      report.logs.some((line) =>
        line.includes('[bindings tools.bindings.ts] tools.loose returned a value that violates its output schema'),
      ),
    ).toBe(true);
  });

  test('a handler that never settles is ended by its deadline, as data', () => {
    const hang = report.runs.hang;
    expect(hang?.result?.error).toBeUndefined();
    expect(hang?.result?.value).toBe('tools.hang timed out after 1500 ms');
    expect(hang?.result?.calls).toMatchObject([
      { name: 'hang', ok: false, message: 'tools.hang timed out after 1500 ms' },
    ]);
  });

  test('a handler in a synchronous loop: its worker is ended, the call fails naming it, the next cell gets a fresh worker', () => {
    const spin = report.runs.spin;
    expect(spin?.result?.error, spin?.texts.join('\n')).toBeUndefined();
    expect(spin?.result?.value).toBe('bindings worker stopped responding while tools.spin was running');
    expect(spin?.result?.calls).toMatchObject([{ name: 'spin', ok: false }]);
    const after = report.runs.after;
    expect(after?.result?.error, after?.texts.join('\n')).toBeUndefined();
    expect(after?.result?.value).toEqual({ hits: 5 });
  });

  test('a call that needs approval asks the person: Allow runs it, dismissing denies it; a deny policy never asks', () => {
    const allowed = report.runs.allowed;
    expect(allowed?.result?.error, allowed?.texts.join('\n')).toBeUndefined();
    expect(allowed?.result?.value).toBe('sent');
    expect(allowed?.asked).toEqual(['A program wants to call tools.send({"to":"ada"}), which needs your approval.']);
    expect(allowed?.result?.calls).toMatchObject([
      { name: 'send', ok: true, pause: { reason: 'approval', decision: 'continue', by: 'user' } },
    ]);
    const denied = report.runs.denied;
    expect(denied?.result?.value).toBe('tools.send was denied by the user');
    expect(denied?.asked).toHaveLength(1);
    expect(denied?.result?.calls).toMatchObject([
      { name: 'send', ok: false, pause: { reason: 'approval', decision: 'throw', by: 'user' } },
    ]);
    const purge = report.runs.purge;
    expect(purge?.result?.value).toBe('tools.purge was denied (approval policy: deny)');
    expect(purge?.asked).toEqual([]);
    expect(purge?.result?.calls).toMatchObject([
      { name: 'purge', ok: false, pause: { reason: 'approval', decision: 'throw', by: 'policy' } },
    ]);
  });

  test("a JavaScript module with defineBindings runs in its own worker: not the extension host's, its console in the log", () => {
    const define = report.runs.define;
    expect(define?.result?.error, define?.texts.join('\n')).toBeUndefined();
    // the handlers' realm: neither the extension host's worker (which holds the editor's API) nor the program's
    expect(define?.result?.value).toEqual(['hi!', { vscode: 'undefined', worker: 'ptc-bindings' }]);
    expect(report.logs).toContain('info [bindings define.bindings.mjs] echoing hi');
    expect(report.logs).toContain(
      'info bindings define.bindings.mjs: notes has 2 function(s), in a web worker of its own: echo, realm',
    );
  });

  test('live mode with a code module says why it does not run in the browser', () => {
    const live = report.runs.live;
    expect(live?.success).toBe(false);
    expect(live?.result).toBeUndefined();
    expect(live?.texts.join('\n')).toContain('live handlers may need Node');
  });

  test('in Restricted Mode the module does not run, saying why', () => {
    const restricted = report.runs.restricted;
    expect(restricted?.success).toBe(false);
    expect(restricted?.result).toBeUndefined();
    expect(restricted?.texts.join('\n')).toContain('Restricted Mode');
  });

  test('a module whose text changed is loaded anew', () => {
    expect(report.runs.reload1?.result?.value).toBe('one');
    expect(report.runs.reload2?.result?.value).toBe('two');
  });

  test('a module that cannot load fails the cell naming the module and why, as data', () => {
    const said = (name: string): string => {
      const step = report.runs[name];
      expect(step?.success, name).toBe(false);
      expect(step?.result, name).toBeUndefined();
      return step?.texts.join('\n') ?? '';
    };
    expect(said('syntax.bindings.mjs')).toMatch(
      /bindings module syntax\.bindings\.mjs has a syntax error: .*\(1:\d+\)/,
    );
    expect(said('enum.bindings.ts')).toMatch(
      /bindings module enum\.bindings\.ts failed to load: SyntaxError: .*\(enum\.bindings\.ts:1:\d+\)/,
    );
    expect(said('relative.bindings.mjs')).toContain(
      'bindings module relative.bindings.mjs imports "./helper.mjs" (line 1), a relative import',
    );
    expect(said('builtin.bindings.js')).toContain('imports "node:fs" (line 2), a Node built-in module');
    expect(said('package.bindings.mjs')).toContain('imports "zod" (line 1), an npm package');
    // validated by the desktop's own validator: the desktop's words
    expect(desktopLoad['invalid.bindings.mjs']).toContain('tools.functions.f');
    expect(said('invalid.bindings.mjs')).toContain(desktopLoad['invalid.bindings.mjs']);
    expect(desktopLoad['throws.bindings.mjs']).toContain('no configuration found');
    expect(said('throws.bindings.mjs')).toContain(
      'bindings module throws.bindings.mjs failed to load: no configuration found',
    );
    expect(said('forever.bindings.mjs')).toContain(
      'the bindings module forever.bindings.mjs did not finish loading within 3000 ms',
    );
    expect(said('common.bindings.cjs')).toContain('is CommonJS, which the browser cannot load');
  });
});
