import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { thenVsNowOf } from '../../../extension/import/then-vs-now.js';
import {
  importedMetaOf,
  planImport,
  verifyImportedNotebook,
  writeImportPlan,
  type ImportedMeta,
} from '../../../runtime/import/index.js';
import { parseNotebook } from '../../../runtime/notebook/parse.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { createNonce, inspectorHtml } from '../../../webview/inspector/inspector-html.js';
import type { InspectorRun } from '../../../webview/protocol/inspector-messages.js';
import { transcriptRun } from '../../../webview/shared/transcript-run.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';

const PAGE = path.resolve(import.meta.dirname, '..', 'page');
const SHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'webview');
const EXAMPLE = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'examples',
  'transcripts',
  'deepseek-session.jsonl',
);
const gate = chromiumGate();

type HostWindow = Window & { __posted: unknown[]; __cspViolations: string[] };

let chrome: LaunchedChromium;
let server: PageServer;
let hostScript: string;
// a real import of the deepseek example and a real replay of its second program
let meta: ImportedMeta;
let replayed: RunResult;

async function openInspector(): Promise<Page> {
  const page = await chrome.context.newPage();
  await page.addInitScript(hostScript);
  await page.goto(`${server.origin}/inspector.html?theme=dark`);
  await page.waitForSelector('.ptc-inspector-header');
  return page;
}

const send = (page: Page, message: unknown): Promise<void> => page.evaluate((m) => window.postMessage(m, '*'), message);
const violations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as HostWindow).__cspViolations);

// The runs the extension host builds for an imported cell: the transcript's record and a cell run with its verdict.
function thenRun(): InspectorRun {
  if (meta.then === undefined) throw new Error('no then');
  return transcriptRun({
    id: 'run-then',
    label: 'cell 4 · transcript',
    language: 'python',
    then: meta.then,
    format: meta.format,
    compare: meta.then.compare,
    origin: `${meta.file} line ${meta.line}`,
    marks: [],
  });
}

function nowRun(id: string, result: RunResult): InspectorRun {
  if (meta.then === undefined) throw new Error('no then');
  return {
    id,
    label: `cell 4 · ${id}`,
    source: 'cell',
    payload: { result, language: 'python', cellId: 'call_rc_2' },
    thenVsNow: thenVsNowOf(meta.then, result),
  };
}

describe.skipIf(!gate.usable)(gate.title('Then vs now in the run inspector (Chromium)'), () => {
  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ptc-then-now-'));
    try {
      const out = path.join(dir, 'ds.ptcnb');
      const planned = await planImport({ files: [EXAMPLE], out });
      if (!planned.ok) throw new Error(planned.message);
      expect(await writeImportPlan(planned.plan)).toMatchObject({ ok: true });
      const parsed = parseNotebook(await readFile(out, 'utf8'));
      if (!parsed.ok) throw new Error('notebook');
      const found = importedMetaOf(parsed.notebook.cells.find((c) => c.metadata?.id === 'call_rc_2')?.metadata);
      if (found === undefined) throw new Error('no import record');
      meta = found;
      const verified = await verifyImportedNotebook(out);
      if (!verified.ok) throw new Error(verified.message);
      const result = verified.cells.find((c) => c.cellId === 'call_rc_2')?.result;
      if (result === undefined) throw new Error('cell did not run');
      replayed = result;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    const themes = await readFile(path.join(PAGE, 'themes.css'), 'utf8');
    hostScript = `window.__PTC_THEME_CSS = ${JSON.stringify(themes)};\n${await readFile(path.join(PAGE, 'inspector-host.js'), 'utf8')}`;
    server.route('/inspector.html', 'text/html', () =>
      inspectorHtml({
        scriptUri: `${server.origin}/dist/webview/inspector.js`,
        cspSource: server.origin,
        nonce: createNonce(),
      }),
    );
    await mkdir(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test('an imported cell opens on Then vs now: the replay matches, side by side with what the model received', async () => {
    const page = await openInspector();
    await send(page, {
      type: 'load',
      runs: [thenRun(), nowRun('replay', replayed)],
      selectedId: 'replay',
      tab: 'then',
    });
    expect(await page.locator('#ptc-tab-then').getAttribute('aria-selected')).toBe('true');
    const view = page.locator('.ptc-then-now');
    expect(await view.getAttribute('data-verdict')).toBe('agrees');
    expect(await page.locator('.ptc-then-origin').textContent()).toBe(
      'Then: deepseek-session.jsonl line 18 (deepseek). Now: cell 4 · replay.',
    );
    expect(await page.locator('.ptc-then-now > .ptc-diff-summary').textContent()).toBe(
      'Now matches then: the same calls and the same output as the transcript recorded.',
    );
    expect(await page.locator('[data-section="diff-then-now-text"] .ptc-section-meta').textContent()).toBe('identical');
    // the standard run diff follows, with the transcript on the left
    expect(await page.locator('.ptc-diff-calls thead th').allTextContents()).toEqual([
      '',
      'cell 4 · transcript',
      'cell 4 · replay',
    ]);
    await page.screenshot({ path: path.join(SHOTS, 'inspector-then-now-dark.png'), fullPage: true });
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  test('a run that no longer matches lists each difference and highlights the first differing line', async () => {
    const page = await openInspector();
    const changed: RunResult = {
      ...replayed,
      logs: ['src/server.ts: 4 lines', 'src/legacy/old.ts: 0 lines'],
      calls: replayed.calls.slice(0, 1),
    };
    await send(page, {
      type: 'load',
      runs: [thenRun(), nowRun('replay', replayed)],
      selectedId: 'replay',
      tab: 'then',
    });
    await send(page, { type: 'add-run', run: nowRun('edited', changed), select: true });
    expect(await page.locator('.ptc-then-now').getAttribute('data-verdict')).toBe('differs');
    const differences = await page.locator('.ptc-then-differences li').allTextContents();
    expect(differences[0]).toMatch(
      /^call 2 of the transcript, tools\.read_file\(\{"path":"src\/legacy\/old\.ts"\}\), was not made$/,
    );
    expect(differences[1]).toMatch(/^run_code text differs at line 2: /);
    const text = page.locator('[data-section="diff-then-now-text"]');
    expect(await text.locator('.ptc-section-meta').textContent()).toBe('1 line differs');
    await text.locator('.ptc-section-toggle').click();
    expect(await text.locator('.ptc-first-divergence .ptc-diff-left').textContent()).toBe(
      'src/legacy/old.ts: no such file: src/legacy/old.ts',
    );
    expect(await text.locator('.ptc-first-divergence .ptc-diff-right').textContent()).toBe(
      'src/legacy/old.ts: 0 lines',
    );
    // picking the older run makes it "now" again
    await page.locator('#ptc-run-picker').selectOption('replay');
    expect(await page.locator('.ptc-then-now').getAttribute('data-verdict')).toBe('agrees');
    await page.close();
  });

  test('before the cell has run, the tab shows the transcript record and says what to do; other tabs show it as recorded', async () => {
    const page = await openInspector();
    await send(page, { type: 'load', runs: [thenRun()], selectedId: 'run-then', tab: 'then' });
    expect(await page.locator('.ptc-then-now').getAttribute('data-verdict')).toBe('pending');
    expect(await page.locator('.ptc-then-now .ptc-empty').textContent()).toContain('Run the cell');
    await page.locator('#ptc-tab-run').click();
    expect(await page.locator('[data-source="transcript"] .ptc-cassette-note').textContent()).toContain(
      'What the program did in the transcript (deepseek-session.jsonl line 18, deepseek): 2 tool calls',
    );
    expect(await page.locator('[data-source="transcript"] .ptc-model-text').textContent()).toBe(
      'src/server.ts: 4 lines\nsrc/legacy/old.ts: no such file: src/legacy/old.ts\nnull',
    );
    expect(await page.locator('#ptc-run-picker option').allTextContents()).toEqual([
      'cell 4 · transcript — as recorded',
    ]);
    await page.close();
  });

  test('without a transcript run the Then tab is not offered', async () => {
    const page = await openInspector();
    await send(page, { type: 'load', runs: [nowRun('replay', replayed)], selectedId: 'replay' });
    expect(await page.locator('[role="tab"]').allTextContents()).toEqual(['Run', 'What the model sees', 'Diff']);
    await page.close();
  });
});
