// What the browser entry's Chromium suites share: the extension's Pyodide folder served over HTTP as vscode.dev
// serves an extension's files, and the entry as shipped (production build) wrapped for a real browser worker with the
// fake editor (browser-vscode.ts), a workspace of files, and a driver that does what the editor would and posts its
// report.
import { build as esbuild } from 'esbuild';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import buildWebExtension, { WEB_EXTENSION_BUNDLE } from '../../../scripts/build-web-extension.mjs';
import type { CallRecord, RunResult } from '../../../runtime/protocol/run-result.js';
import { launchChromium, type LaunchedChromium } from '../../webview/helpers/chromium.mjs';

export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

// Serves the extension's Pyodide folder as the editor serves an extension's files (any origin may read them).
export function serveExtension(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(url.pathname);
    const file = path.join(ROOT, decodeURIComponent(url.pathname.replace(/^\/ext\//, '')));
    const inside = file.startsWith(path.join(ROOT, 'dist', 'node_modules', 'pyodide') + path.sep);
    if (!inside || !fs.existsSync(file)) {
      response.writeHead(404, { 'access-control-allow-origin': '*' }).end();
      return;
    }
    response.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ext`,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

export interface WorkerOptions<Args extends unknown[]> {
  // the workspace the fake editor's file system serves, by path
  files: Record<string, string>;
  // where the extension's own files are served (its `extensionUri`)
  extensionUrl: string;
  // runs in the worker once the entry is active (serialized with toString, so it imports nothing), with `args`
  driver: (...args: Args) => Promise<void>;
  args: Args;
  // where the production bundle goes (default: the shipped file's place); a suite of its own builds elsewhere, so it
  // never reads the file while another suite rewrites it
  outfile?: string;
}

// The worker's whole source: the fake editor, the entry as shipped, the files, and the driver's call.
export async function extensionWorker<Args extends unknown[]>(options: WorkerOptions<Args>): Promise<string> {
  const outfile = options.outfile ?? WEB_EXTENSION_BUNDLE;
  await buildWebExtension({ production: true, outfile });
  const fake = await esbuild({
    entryPoints: [path.join(import.meta.dirname, 'browser-vscode.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  return [
    fake.outputFiles[0]?.text ?? '',
    'const module = { exports: {} };',
    "const require = (name) => { if (name === 'vscode') return globalThis.__vscode; throw new Error('the browser entry asked for ' + name); };",
    `(function (module, exports, require) {\n${fs.readFileSync(path.resolve(ROOT, outfile), 'utf8')}\n})(module, module.exports, require);`,
    `globalThis.__files = ${JSON.stringify(options.files)};`,
    // activated as the editor activates it: the manifest, and the address its files are served from
    `const served = new URL(${JSON.stringify(options.extensionUrl)});`,
    `module.exports.activate({ subscriptions: [], extension: { packageJSON: ${fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')} }, extensionUri: { scheme: served.protocol.replace(':', ''), authority: served.host, path: served.pathname } });`,
    `(${options.driver.toString()})(...${JSON.stringify(options.args)});`,
  ].join('\n');
}

// Runs the worker in a page of `chromium`; resolves to what it posted (or its uncaught error as `{ error }`).
export async function runExtensionWorker<Report>(chromium: LaunchedChromium, source: string): Promise<Report> {
  const page = await chromium.context.newPage();
  return page.evaluate(
    (text) =>
      new Promise<Report>((resolve) => {
        const w = new Worker(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
        w.onmessage = (event: MessageEvent<Report>) => resolve(event.data);
        w.onerror = (event) => resolve({ error: event.message } as Report);
      }),
    source,
  );
}

// One cell a driver runs, in its notebook.
export interface CellStep {
  name: string;
  notebook: string;
  language: 'typescript' | 'python';
  program: string;
  // the cell's metadata
  metadata?: Record<string, unknown>;
  // files of the workspace written before the cell runs
  write?: Record<string, string>;
  // an address the driver POSTs to first (a test's control server)
  before?: string;
  // runs in Restricted Mode
  untrusted?: true;
  // the person's choices in the dialogs the cell opens, in order
  answers?: string[];
}

// How one cell ended: its outputs' text, its result (when it ran), how long it took.
export interface CellReport {
  success: boolean | undefined;
  // what the cell asked the person
  asked: string[];
  texts: string[];
  result?: RunResult;
  ms: number;
}

// What a driver posts: each cell's report by its step's name, and the entry's log.
export interface CellsReport {
  error?: string;
  runs: Record<string, CellReport>;
  logs: string[];
}

// Runs inside the worker (serialized with toString), once the entry is active: each step's cell in its notebook.
export async function driveCells(notebooks: Record<string, unknown>, steps: CellStep[]): Promise<void> {
  interface Execution {
    success: boolean | undefined;
    outputs: { items: { mime: string; data: Uint8Array }[] }[];
  }
  const scope = globalThis as unknown as {
    __vscode: { workspace: { isTrusted: boolean } };
    __files: Record<string, string>;
    __answers: string[];
    __recorded: {
      controllers: { executeHandler(cells: unknown[]): Promise<void> }[];
      executions: Execution[];
      logs: string[];
      warnings: string[];
    };
    postMessage(message: unknown): void;
  };
  try {
    const recorded = scope.__recorded;
    const warned = recorded.warnings;
    const controller = recorded.controllers[0];
    if (controller === undefined) throw new Error('no controller registered');
    const decoder = new TextDecoder();
    const runs: Record<string, unknown> = {};
    for (const step of steps) {
      if (step.before !== undefined) await fetch(step.before, { method: 'POST' });
      Object.assign(scope.__files, step.write ?? {});
      scope.__vscode.workspace.isTrusted = step.untrusted !== true;
      scope.__answers = [...(step.answers ?? [])];
      const began = Date.now();
      const pending = controller.executeHandler([
        {
          document: { languageId: step.language, getText: () => step.program },
          metadata: step.metadata ?? {},
          index: 0,
          notebook: { uri: { path: step.notebook }, metadata: notebooks[step.notebook] },
        },
      ]);
      const execution = recorded.executions[recorded.executions.length - 1] as Execution;
      await pending;
      const items = execution.outputs[0]?.items ?? [];
      const rich = items.find((item) => item.mime === 'application/vnd.ptc-playground.result+json');
      runs[step.name] = {
        success: execution.success,
        ms: Date.now() - began,
        asked: warned.splice(0),
        texts: items.filter((item) => item.mime.startsWith('text/')).map((item) => decoder.decode(item.data)),
        ...(rich === undefined
          ? {}
          : { result: (JSON.parse(decoder.decode(rich.data)) as { result: unknown }).result }),
      };
    }
    scope.postMessage({ runs, logs: recorded.logs });
  } catch (error) {
    scope.postMessage({ error: String((error as Error).stack ?? error) });
  }
}

// A call record as both sides must agree on it: everything but when it ran and how long it took.
export const timeless = (calls: readonly CallRecord[]) =>
  calls.map(({ startedAtMs: _started, durationMs: _duration, ...rest }) => rest);

// The entry as shipped, built to `outfile` (a suite of its own builds elsewhere), run in a fresh Chromium with the
// workspace `files` and the shared driver over `steps`; the browser is the caller's to close.
export async function runCells(options: {
  files: Record<string, string>;
  extensionUrl: string;
  notebooks: Record<string, unknown>;
  steps: CellStep[];
  // the suite's own folder: the bundle is built there, not at the shipped bundle's place, which the browser entry's
  // other suites rebuild
  workDir: string;
}): Promise<{ report: CellsReport; chromium: LaunchedChromium }> {
  const worker = await extensionWorker({
    files: options.files,
    extensionUrl: options.extensionUrl,
    driver: driveCells,
    args: [options.notebooks, options.steps],
    outfile: path.join(options.workDir, 'web-extension.cjs'),
  });
  const chromium = await launchChromium();
  return { report: await runExtensionWorker<CellsReport>(chromium, worker), chromium };
}
