// The browser entry (vscode.dev, github.dev) built as shipped and run in a real browser worker (Debian's Chromium):
// no Node anywhere, `.ptcnb` files open with their saved results and save back unchanged, and running a cell or any
// command says why it cannot happen there. The build itself refuses Node APIs by name.
import { build as esbuild } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import buildWebExtension, { browserOnly, WEB_EXTENSION_BUNDLE } from '../../../scripts/build-web-extension.mjs';
import { Buffer as BrowserBuffer } from '../../../extension/web/buffer.js';
import { chromiumGate } from '../../webview/helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../../webview/helpers/chromium.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const CANONICAL = fs.readFileSync(path.join(ROOT, 'test/runtime/notebook/fixtures/canonical.ptcnb'), 'utf8');
const gate = chromiumGate();

interface WorkerReport {
  error?: string;
  hasNode: boolean;
  cells: { kind: number; language: string; outputs: string[][] }[];
  roundTrip: string;
  corrupt: string;
  executions: { started: boolean; success: boolean | undefined }[];
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

    beforeAll(async () => {
      await buildWebExtension({ production: true });
      const fake = await esbuild({
        entryPoints: [path.join(import.meta.dirname, 'browser-vscode.ts')],
        bundle: true,
        platform: 'browser',
        format: 'iife',
        write: false,
        logLevel: 'silent',
      });
      const packageJson = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
      const worker = [
        fake.outputFiles[0]?.text ?? '',
        'const module = { exports: {} };',
        "const require = (name) => { if (name === 'vscode') return globalThis.__vscode; throw new Error('the browser entry asked for ' + name); };",
        `(function (module, exports, require) {\n${fs.readFileSync(path.join(ROOT, WEB_EXTENSION_BUNDLE), 'utf8')}\n})(module, module.exports, require);`,
        `(${runInWorker.toString()})(module.exports, ${JSON.stringify(packageJson)}, ${JSON.stringify(CANONICAL)});`,
      ].join('\n');
      chromium = await launchChromium();
      const page = await chromium.context.newPage();
      report = await page.evaluate(
        (source) =>
          new Promise<WorkerReport>((resolve) => {
            const w = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
            w.onmessage = (event: MessageEvent<WorkerReport>) => resolve(event.data);
            w.onerror = (event) => resolve({ error: event.message } as WorkerReport);
          }),
        worker,
      );
    }, 120_000);
    afterAll(async () => chromium?.close());

    test('activates with no Node and registers the serializer, a view-only kernel and every manifest command', () => {
      expect(report.error).toBeUndefined();
      expect(report.hasNode).toBe(false);
      expect(report.controllers).toEqual([{ type: 'ptc-notebook', label: 'PTC Playground (browser: view only)' }]);
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

    test('running a cell or a command changes nothing and says why', () => {
      expect(report.executions).toEqual([{ started: true, success: false }]);
      expect(report.warnings).toHaveLength(2);
      for (const warning of report.warnings) expect(warning).toContain('cannot run cells in the browser');
    });
  });
});

// Runs inside the worker (serialized with toString): activates the entry and drives what the editor would.
function runInWorker(entry: { activate(context: unknown): void }, packageJson: string, notebook: string): void {
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
      controllers: { type: string; label: string; executeHandler(cells: unknown[]): void }[];
      executions: { started: boolean; success: boolean | undefined }[];
      commands: Map<string, () => unknown>;
      warnings: string[];
    };
    postMessage(message: unknown): void;
    process?: unknown;
  };
  try {
    entry.activate({ subscriptions: [], extension: { packageJSON: JSON.parse(packageJson) as unknown } });
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
    recorded.controllers[0]?.executeHandler(data.cells.slice(0, 1));
    recorded.commands.get('ptcPlayground.recordCell')?.();
    scope.postMessage({
      hasNode: typeof scope.process !== 'undefined',
      cells: data.cells.map((c) => ({
        kind: c.kind,
        language: c.languageId,
        outputs: (c.outputs ?? []).map((o) => o.items.map((i) => i.mime)),
      })),
      roundTrip: new TextDecoder().decode(serializer.serializeNotebook(data)),
      corrupt,
      executions: recorded.executions,
      warnings: recorded.warnings,
      commands: [...recorded.commands.keys()],
      controllers: recorded.controllers.map((c) => ({ type: c.type, label: c.label })),
    });
  } catch (error) {
    scope.postMessage({ error: String((error as Error).stack ?? error) });
  }
}
