// The browser entry (vscode.dev, github.dev) built as shipped and run in a real browser worker (Debian's Chromium),
// as VS Code's web extension host runs it: no Node anywhere, `.ptcnb` files open with their saved results and save
// back unchanged, TypeScript cells run in the quickjs engine and Python cells in the pyodide engine, each in a web
// worker of their own (output, value, failures with their line, the deadline, Stop, calls from the cassette), a Python
// program reaching for its embedding fails as it does in the desktop's pyodide engine, and every desktop command says
// why it cannot act. The build itself refuses Node APIs by name. Pyodide's files are served over HTTP from the
// extension's folder (dist/node_modules/pyodide, built by the suite's global setup), cross-origin as vscode.dev does.
import { build as esbuild } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { browserOnly } from '../../../scripts/build-web-extension.mjs';
import { Buffer as BrowserBuffer } from '../../../extension/web/buffer.js';
import { chromiumGate } from '../../webview/helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../../webview/helpers/chromium.mjs';
import { extensionWorker, ROOT, runExtensionWorker, serveExtension } from './web-harness.js';

const CANONICAL = fs.readFileSync(path.join(ROOT, 'test/runtime/notebook/fixtures/canonical.ptcnb'), 'utf8');
const TOUR = fs.readFileSync(path.join(ROOT, 'examples/tour.ptcnb'), 'utf8');
// the files the worker's editor serves: the tour with its real cassette, and a cassette that is not one
const WORKSPACE: Record<string, string> = {
  '/ws/examples/tour.ptcnb': TOUR,
  '/ws/examples/.ptc/cassettes/tour/ts-mock.json': fs.readFileSync(
    path.join(ROOT, 'examples/.ptc/cassettes/tour/ts-mock.json'),
    'utf8',
  ),
  '/ws/examples/.ptc/cassettes/tour/py-mock.json': fs.readFileSync(
    path.join(ROOT, 'examples/.ptc/cassettes/tour/py-mock.json'),
    'utf8',
  ),
  // where the folder-wide layout before per-notebook folders kept a cassette: still read
  '/ws/.ptc/cassettes/broken.json': '{"version": 1, "calls": [',
};
// Python programs that reach for the embedding or the host's files: each must fail exactly as in the desktop's engine
const ESCAPES: Record<string, string> = {
  importJs: 'import js\nreturn js.fetch',
  pyodideJs: 'from pyodide_js import _module\nreturn 1',
  ffi: 'from pyodide.ffi import to_js\nreturn 1',
  readOutside: 'with open("/etc/hostname") as f:\n    return f.read()',
  mount: 'import os\nos.listdir("/mnt/host")\nreturn 1',
};

const gate = chromiumGate();

// One cell run as the worker saw it: how the execution ended and the result the entry wrote.
interface CellReport {
  started: boolean;
  success: boolean | undefined;
  order: number | undefined;
  ms?: number;
  mimes: string[];
  texts: string[];
  result?: {
    value?: unknown;
    logs: string[];
    stderrLogs?: number[];
    error?: { kind: string; message: string; location?: { line: number; column?: number } };
    sandbox: { engine?: string; isolation?: string; enforcement: string; missing?: string[] };
    started?: false;
    mode?: string;
    replay?: { matched: number; unused: number; diverged: unknown[] };
    calls: { global: string; name: string; args: unknown; ok: boolean }[];
  };
}

interface WorkerReport {
  error?: string;
  hasNode: boolean;
  cells: { kind: number; language: string; outputs: string[][] }[];
  roundTrip: string;
  corrupt: string;
  runs: Record<string, CellReport>;
  warnings: string[];
  commands: string[];
  controllers: { type: string; label: string }[];
}

// Bundles one entry with the browser build's own rules; resolves to the build error text, or '' when it built.
async function browserBuildError(source: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-web-build-'));
  try {
    const entry = path.join(dir, 'entry.ts');
    fs.writeFileSync(entry, source);
    await esbuild({
      entryPoints: [entry],
      bundle: true,
      platform: 'browser',
      format: 'cjs',
      write: false,
      logLevel: 'silent',
      plugins: [browserOnly],
      external: ['vscode'],
    });
    return '';
  } catch (error) {
    return ((error as { errors?: { text: string }[] }).errors ?? []).map((e) => e.text).join('\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the browser entry', () => {
  test('the build refuses Node APIs and runtime exports outside the browser-safe surface, by name', async () => {
    expect(await browserBuildError("import fs from 'node:fs';\nexport const x = fs;\n")).toMatch(
      /node:fs \(imported by .*entry\.ts\) cannot run in a browser/,
    );
    const runtimeIndex = path.join(ROOT, 'runtime', 'index.js');
    expect(
      await browserBuildError(`import { createRuntime } from '${runtimeIndex}';\nexport const x = createRuntime;\n`),
    ).toMatch(/No matching export .* "createRuntime"/);
    expect(
      await browserBuildError(`import { parseNotebook } from '${runtimeIndex}';\nexport const x = parseNotebook;\n`),
    ).toBe('');
  });

  test("the browser's Buffer stand-in counts UTF-8 bytes exactly as Node does, lone surrogates included", () => {
    const samples = [
      '',
      'ascii',
      'é€',
      '😀',
      'a\ud83db',
      '\udc00x',
      '\ud83d',
      'mixed 😀 € é \u0000 \uffff',
      'x'.repeat(1000),
    ];
    for (const text of samples) expect(BrowserBuffer.byteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
    expect(new TextDecoder().decode(BrowserBuffer.from('€😀'))).toBe('€😀');
  });

  describe.skipIf(!gate.usable)(gate.title('in a real browser worker'), () => {
    let chromium: LaunchedChromium;
    let report: WorkerReport;
    let served: Awaited<ReturnType<typeof serveExtension>>;
    // the same escapes in the desktop's pyodide engine (a Node child), for comparison
    const desktop: Record<string, RunResult> = {};

    beforeAll(async () => {
      served = await serveExtension();
      const worker = await extensionWorker({
        files: WORKSPACE,
        extensionUrl: served.url,
        driver: runInWorker,
        args: [CANONICAL, ESCAPES],
      });
      chromium = await launchChromium();
      report = await runExtensionWorker<WorkerReport>(chromium, worker);
      // then the desktop's engine, one run at a time with a spare loaded ahead (both load interpreters: not at once)
      const runtime = createRuntime({ spares: 1 });
      try {
        const request = (program: string) =>
          runtime.resolve({ language: 'python', program, engine: 'wasm', timeoutMs: 120_000 });
        await runtime.warm(request(''));
        for (const [name, program] of Object.entries(ESCAPES)) desktop[name] = await runtime.run(request(program));
      } finally {
        await runtime.dispose();
      }
      // the time per run as the editor saw it (start to end of the cell's execution), for the log
      const times = Object.entries(report.runs ?? {}).map(([name, run]) => `${name} ${run.ms ?? '?'} ms`);
      process.stdout.write(`web extension runs in Chromium ${chromium.version}: ${times.join(', ')}\n`);
    }, 600_000);
    afterAll(async () => {
      await chromium?.close();
      await served?.close();
    });

    test('activates with no Node and registers the serializer, the WebAssembly kernel and every manifest command', () => {
      expect(report.error).toBeUndefined();
      expect(report.hasNode).toBe(false);
      expect(report.controllers).toEqual([{ type: 'ptc-notebook', label: 'PTC Playground (browser: WebAssembly)' }]);
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        contributes: { commands: { command: string }[] };
      };
      expect(report.commands.sort()).toEqual(manifest.contributes.commands.map((c) => c.command).sort());
    });

    test('a notebook opens with its saved results and saves back byte for byte; a corrupt one is refused with the reason', () => {
      expect(report.cells.length).toBeGreaterThan(1);
      expect(
        report.cells.some((c) =>
          c.outputs.some((items) => items.includes('application/vnd.ptc-playground.result+json')),
        ),
      ).toBe(true);
      expect(report.roundTrip).toBe(CANONICAL);
      expect(report.corrupt).toContain('not a readable PTC notebook');
    });

    test('a TypeScript cell runs in the quickjs engine in a web worker: types stripped, console, value, proven isolation', () => {
      const run = report.runs.typescript as CellReport;
      expect(run.success).toBe(true);
      expect(run.order).toBe(1);
      expect(run.mimes).toContain('application/vnd.ptc-playground.result+json');
      expect(run.result?.error).toBeUndefined();
      expect(run.result?.value).toEqual({ total: 6, kinds: ['number', 'object'] });
      // rendered as Node's console renders them
      expect(run.result?.logs).toEqual(["sum 6 { nested: [ 1, 'two' ] } Map(1) { 'k' => 1 }", 'careful']);
      expect(run.result?.stderrLogs).toEqual([1]);
      // the probe ran in the browser too: every way out (files, network, processes, host objects) refused
      expect(run.result?.sandbox).toMatchObject({ engine: 'quickjs', isolation: 'wasm', enforcement: 'full' });
      expect(run.result?.sandbox.missing).toBeUndefined();
    });

    test("a failing cell ends ✗ with the exception at the program's line; what the guest cannot reach stays out of reach", () => {
      const failing = report.runs.failing as CellReport;
      expect(failing.success).toBe(false);
      expect(failing.result?.error?.kind).toBe('exception');
      expect(failing.result?.error?.message).toContain('Error: boom');
      expect(failing.result?.error?.location?.line).toBe(3);
      const reach = report.runs.reach as CellReport;
      expect(reach.result?.error).toBeUndefined();
      expect(reach.result?.value).toEqual({
        fetch: 'undefined',
        importScripts: 'undefined',
        self: 'undefined',
        postMessage: 'undefined',
        indexedDB: 'undefined',
        Worker: 'undefined',
      });
    });

    test('a Python cell runs in the pyodide engine in a web worker: print, stderr, value, proven isolation', () => {
      const python = report.runs.python as CellReport;
      expect(python.result?.error).toBeUndefined();
      expect(python.success).toBe(true);
      expect(python.result?.value).toEqual({ sum: 42, version: [3, 13] });
      expect(python.result?.logs).toEqual(["hi {'a': 2} [1, 'x']", 'bad']);
      expect(python.result?.stderrLogs).toEqual([1]);
      // the desktop engine's probe, run in a browser worker: every way out refused
      expect(python.result?.sandbox).toMatchObject({ engine: 'pyodide', isolation: 'wasm', enforcement: 'full' });
      expect(python.result?.sandbox.missing).toBeUndefined();
      // a second run gets a fresh interpreter: nothing of the first is left
      const again = report.runs.pythonAgain as CellReport;
      expect(again.result?.error).toBeUndefined();
      expect(again.result?.value).toEqual({ leftover: false });
      // Pyodide's files were read from the extension's folder, each once: every later worker got them in memory
      for (const file of ['pyodide.asm.wasm', 'pyodide.asm.js', 'python_stdlib.zip', 'pyodide-lock.json'])
        expect(served.requests.filter((p) => p === `/ext/dist/node_modules/pyodide/${file}`)).toHaveLength(1);
      expect(served.requests.every((p) => p.startsWith('/ext/dist/node_modules/pyodide/'))).toBe(true);
    });

    test('a Python program reaching for the embedding or the host fails exactly as in the desktop pyodide engine', () => {
      for (const name of Object.keys(ESCAPES)) {
        const web = report.runs[`escape:${name}`]?.result;
        const node = desktop[name];
        expect(node?.error?.kind, `${name}: ${node?.error?.message}`).toBe('exception');
        expect(web?.error, name).toEqual(node?.error);
        expect(web?.logs, name).toEqual(node?.logs);
      }
      expect(desktop.importJs?.error?.message).toContain("No module named 'js' in the pyodide engine");
      expect(desktop.readOutside?.error?.message).toContain('FileNotFoundError');
    });

    test("a Python cell's limits hold in the browser: output cap, exit code, deadline in a tight loop, Stop", () => {
      const capped = report.runs.pythonCapped as CellReport;
      expect(capped.result?.error).toMatchObject({ kind: 'output-limit', message: 'outer output exceeded 1000 bytes' });
      const exited = report.runs.pythonExit as CellReport;
      expect(exited.result?.error).toMatchObject({
        kind: 'worker-exit',
        message: "The pyodide engine's web worker exited before completing (code 3)",
      });
      expect(exited.result?.logs).toEqual(['leaving']);
      const deadline = report.runs.pythonDeadline as CellReport;
      expect(deadline.result?.error).toMatchObject({ kind: 'timeout', message: 'execution deadline reached (1500ms)' });
      const stopped = report.runs.pythonStopped as CellReport;
      // handed to its worker and spinning in `while True: pass` before Stop: not an early refusal
      expect(stopped.result?.started).toBeUndefined();
      expect(stopped.result?.error).toMatchObject({ kind: 'abort', message: 'cancelled from the notebook' });
      expect(stopped.success).toBeUndefined();
      const after = report.runs.pythonAfter as CellReport;
      expect(after.result?.value).toBe('still here');
    });

    test('a runaway cell ends at its deadline, and Stop ends one at once; the next cell runs as usual', () => {
      const deadline = report.runs.deadline as CellReport;
      expect(deadline.success).toBe(false);
      expect(deadline.result?.error).toMatchObject({ kind: 'timeout', message: 'execution deadline reached (1500ms)' });
      const stopped = report.runs.stopped as CellReport;
      // handed to its worker and spinning there before Stop: not an early refusal
      expect(stopped.result?.started).toBeUndefined();
      expect(stopped.result?.error).toMatchObject({ kind: 'abort', message: 'cancelled from the notebook' });
      // cancelled is neither ✓ nor ✗, as on the desktop
      expect(stopped.success).toBeUndefined();
      const after = report.runs.after as CellReport;
      expect(after.success).toBe(true);
      expect(after.result?.value).toBe('still here');
    });

    test("a cell's calls are answered from its cassette: the tour's mock cell gives its expected value from its committed recording", () => {
      const replayed = report.runs.replayed as CellReport;
      expect(replayed.result?.error).toBeUndefined();
      expect(replayed.success).toBe(true);
      const tour = JSON.parse(TOUR) as {
        cells: { metadata?: { id?: string; expect?: { value: { is: unknown }; logs: { is: unknown } } } }[];
      };
      const expected = tour.cells.find((c) => c.metadata?.id === 'ts-mock')?.metadata?.expect;
      expect(replayed.result?.value).toEqual(expected?.value.is);
      expect(replayed.result?.logs).toEqual(expected?.logs.is);
      expect(replayed.result?.mode).toBe('replay');
      expect(replayed.result?.replay).toMatchObject({ matched: 4, unused: 0, diverged: [] });
      expect(replayed.result?.calls.map((c) => [c.name, c.args, c.ok])).toEqual([
        ['lookupCity', { name: 'Paris' }, true],
        ['lookupCity', { name: 'Berlin' }, true],
        ['lookupCity', { name: 'Madrid' }, true],
        ['lookupCity', { name: 'Atlantis' }, false],
      ]);
      const python = report.runs.pythonReplayed as CellReport;
      const pyExpected = tour.cells.find((c) => c.metadata?.id === 'py-mock')?.metadata?.expect;
      expect(python.result?.error).toBeUndefined();
      expect(python.result?.value).toEqual(pyExpected?.value.is);
      expect(python.result?.logs).toEqual(pyExpected?.logs.is);
      expect(python.result?.mode).toBe('replay');
      expect(python.result?.replay?.diverged).toEqual([]);
      const broken = report.runs.brokenCassette as CellReport;
      expect(broken.success).toBe(false);
      expect(broken.result).toBeUndefined();
      expect(broken.texts.join('\n')).toContain('cassette .ptc/cassettes/broken.json is not valid JSON');
    });

    test('every desktop-only command says why it cannot act in the browser', () => {
      expect(report.warnings).toHaveLength(1);
      expect(report.warnings[0]).toContain('needs VS Code on the desktop');
    });
  });
});

// Runs inside the worker (serialized with toString), once the entry is active: drives what the editor would.
async function runInWorker(notebook: string, escapes: Record<string, string>): Promise<void> {
  interface Output {
    items: { mime: string; data: Uint8Array }[];
  }
  interface Execution {
    started: boolean;
    success: boolean | undefined;
    order: number | undefined;
    outputs: Output[];
    startedAt?: number;
    endedAt?: number;
    cancel(): void;
  }
  const scope = globalThis as unknown as {
    __recorded: {
      serializers: {
        serializer: {
          deserializeNotebook(b: Uint8Array): {
            cells: { kind: number; languageId: string; outputs?: { items: { mime: string }[] }[] }[];
          };
          serializeNotebook(d: unknown): Uint8Array;
        };
      }[];
      controllers: { type: string; label: string; executeHandler(cells: unknown[]): Promise<void> }[];
      executions: Execution[];
      commands: Map<string, () => unknown>;
      warnings: string[];
    };
    postMessage(message: unknown): void;
    process?: unknown;
  };
  const cell = (languageId: string, program: string, metadata: unknown = {}, notebookPath = '/ws/scratch.ptcnb') => ({
    document: { languageId, getText: () => program },
    metadata,
    index: 0,
    notebook: { uri: { path: notebookPath } },
  });
  const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    const recorded = scope.__recorded;
    const serializer = recorded.serializers[0]?.serializer;
    if (serializer === undefined) throw new Error('no serializer registered');
    const data = serializer.deserializeNotebook(new TextEncoder().encode(notebook));
    let corrupt = '';
    try {
      serializer.deserializeNotebook(new TextEncoder().encode('{"version": 1, "cells": ['));
    } catch (error) {
      corrupt = (error as Error).message;
    }
    const controller = recorded.controllers[0];
    if (controller === undefined) throw new Error('no controller registered');
    const runs: Record<string, Execution> = {};
    const execute = async (name: string, c: unknown): Promise<void> => {
      const pending = controller.executeHandler([c]);
      runs[name] = recorded.executions[recorded.executions.length - 1] as Execution;
      await pending;
    };
    await execute(
      'typescript',
      cell(
        'typescript',
        [
          'const xs: number[] = [1, 2, 3];',
          'const total: number = xs.reduce((a: number, b: number) => a + b, 0);',
          "console.log('sum', total, { nested: [1, 'two'] }, new Map([['k', 1]]));",
          "console.warn('careful');",
          'return { total, kinds: [typeof total, typeof xs] };',
        ].join('\n'),
      ),
    );
    await execute(
      'failing',
      cell('typescript', "const n: number = 1;\nif (n > 0)\n  throw new Error('boom');\nreturn n;"),
    );
    await execute(
      'reach',
      cell(
        'typescript',
        "const g: any = globalThis;\nconst names = ['fetch', 'importScripts', 'self', 'postMessage', 'indexedDB', 'Worker'];\nreturn Object.fromEntries(names.map((n) => [n, typeof g[n]]));",
      ),
    );
    await execute('deadline', cell('typescript', 'for (;;) {}', { limits: { timeoutMs: 1500 } }));
    const stopping = controller.executeHandler([cell('typescript', 'let i = 0;\nfor (;;) i++;')]);
    runs.stopped = recorded.executions[recorded.executions.length - 1] as Execution;
    // long enough for the worker to start and the program to spin (the deadline is the default 30 s)
    await delay(3000);
    runs.stopped.cancel();
    await stopping;
    await execute('after', cell('typescript', "return 'still here';"));
    await execute(
      'python',
      cell(
        'python',
        [
          'import sys, builtins',
          'n = 2',
          'print("hi", {"a": n}, [1, "x"])',
          'print("bad", file=sys.stderr)',
          'builtins.ptc_leftover = True',
          'return {"sum": n + 40, "version": list(sys.version_info[:2])}',
        ].join('\n'),
      ),
    );
    await execute(
      'pythonAgain',
      cell('python', 'import builtins\nreturn {"leftover": hasattr(builtins, "ptc_leftover")}'),
    );
    for (const [name, program] of Object.entries(escapes)) await execute(`escape:${name}`, cell('python', program));
    await execute(
      'pythonCapped',
      cell('python', 'for i in range(100000):\n    print(i)', { limits: { maxOutputBytes: 1000 } }),
    );
    await execute('pythonExit', cell('python', 'import sys\nprint("leaving")\nsys.exit(3)'));
    await execute('pythonDeadline', cell('python', 'while True:\n    pass', { limits: { timeoutMs: 1500 } }));
    // Stop once the runaway program surely spins: longer than any Python cell so far took from start to end
    const slowest = Math.max(...Object.values(runs).map((r) => (r.endedAt ?? 0) - (r.startedAt ?? 0)), 0);
    const runaway = controller.executeHandler([cell('python', 'while True:\n    pass')]);
    runs.pythonStopped = recorded.executions[recorded.executions.length - 1] as Execution;
    await delay(Math.max(3000, slowest * 2));
    runs.pythonStopped.cancel();
    await runaway;
    await execute('pythonAfter', cell('python', 'return "still here"'));
    // the tour's mock cell, as the serializer reads it, its calls answered from its committed cassette
    const files = (globalThis as unknown as { __files: Record<string, string> }).__files;
    const tour = serializer.deserializeNotebook(
      new TextEncoder().encode(files['/ws/examples/tour.ptcnb']),
    ) as unknown as {
      cells: { value: string; languageId: string; metadata?: { id?: string } }[];
    };
    const mock = tour.cells.find((c) => c.metadata?.id === 'ts-mock');
    if (mock === undefined) throw new Error('the tour has no ts-mock cell');
    await execute('replayed', cell('typescript', mock.value, mock.metadata, '/ws/examples/tour.ptcnb'));
    const pyMock = tour.cells.find((c) => c.metadata?.id === 'py-mock');
    if (pyMock === undefined) throw new Error('the tour has no py-mock cell');
    await execute('pythonReplayed', cell('python', pyMock.value, pyMock.metadata, '/ws/examples/tour.ptcnb'));
    await execute('brokenCassette', cell('typescript', 'return 1;', { id: 'broken' }));
    recorded.commands.get('ptcPlayground.recordCell')?.();
    const decoder = new TextDecoder();
    const report = (execution: Execution) => {
      const items = execution.outputs[0]?.items ?? [];
      const rich = items.find((item) => item.mime === 'application/vnd.ptc-playground.result+json');
      return {
        started: execution.started,
        success: execution.success,
        order: execution.order,
        ms:
          execution.startedAt === undefined || execution.endedAt === undefined
            ? undefined
            : execution.endedAt - execution.startedAt,
        mimes: items.map((item) => item.mime),
        texts: items.filter((item) => item.mime.startsWith('text/')).map((item) => decoder.decode(item.data)),
        ...(rich === undefined
          ? {}
          : { result: (JSON.parse(decoder.decode(rich.data)) as { result: unknown }).result }),
      };
    };
    scope.postMessage({
      hasNode: typeof scope.process !== 'undefined',
      cells: data.cells.map((c) => ({
        kind: c.kind,
        language: c.languageId,
        outputs: (c.outputs ?? []).map((o) => o.items.map((i) => i.mime)),
      })),
      roundTrip: new TextDecoder().decode(serializer.serializeNotebook(data)),
      corrupt,
      runs: Object.fromEntries(Object.entries(runs).map(([name, execution]) => [name, report(execution)])),
      warnings: recorded.warnings,
      commands: [...recorded.commands.keys()],
      controllers: recorded.controllers.map((c) => ({ type: c.type, label: c.label })),
    });
  } catch (error) {
    scope.postMessage({ error: String((error as Error).stack ?? error) });
  }
}
