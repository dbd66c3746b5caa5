import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { InspectorRun } from '../../../webview/protocol/inspector-messages.js';
import { encodeHostToInspector, parseInspectorToHost } from '../../../webview/protocol/inspector-messages.js';
import { createNonce, inspectorHtml } from '../../../webview/inspector/inspector-html.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { fixturePayload } from '../fixtures/run-results.mjs';
import { EXAMPLE_BINDINGS, ptcRunJson } from '../helpers/ptc-cli.js';
import { cassetteRun, type CassetteCallLike } from '../../../webview/shared/cassette-run.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';

const PAGE = path.resolve(import.meta.dirname, '..', 'page');
const SHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'webview');
const gate = chromiumGate();

type HostWindow = Window & { __posted: unknown[]; __cspViolations: string[]; __inline?: number };

let chrome: LaunchedChromium;
let server: PageServer;
let hostScript: string;
let recorded: { result: RunResult; calls: CassetteCallLike[] };
const nonces: string[] = [];

function run(id: string, fixture: string, label: string): InspectorRun {
  return { id, label, source: 'cell', createdAt: '2026-12-03T11:00:00.000Z', payload: fixturePayload(fixture) };
}

const RUNS = {
  success: run('run-success', 'success', 'cell 1 · run 1 · mock'),
  timeout: run('run-timeout', 'failure-timeout', 'cell 1 · run 2 · mock'),
  live: run('run-live', 'diff-live', 'cell 1 · run 3 · live'),
  replay: run('run-replay', 'diff-replay', 'cell 1 · run 4 · replay'),
};

// The panel document exactly as the extension builds it (inspector-html.ts), served with a fresh nonce each load.
async function openInspector(theme: 'light' | 'dark' = 'dark'): Promise<Page> {
  const page = await chrome.context.newPage();
  await page.addInitScript(hostScript);
  await page.goto(`${server.origin}/inspector.html?theme=${theme}`);
  await page.waitForSelector('.ptc-inspector-header');
  return page;
}

// What the extension host does with panel.webview.postMessage: a window message event in the page.
async function send(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => window.postMessage(m, '*'), message);
}

const posted = (page: Page): Promise<unknown[]> => page.evaluate(() => (window as unknown as HostWindow).__posted);
const violations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as HostWindow).__cspViolations);

describe.skipIf(!gate.usable)(gate.title('run inspector page in Chromium'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    const themes = await readFile(path.join(PAGE, 'themes.css'), 'utf8');
    hostScript = `window.__PTC_THEME_CSS = ${JSON.stringify(themes)};\n${await readFile(path.join(PAGE, 'inspector-host.js'), 'utf8')}`;
    server.route('/inspector.html', 'text/html', () => {
      const nonce = createNonce();
      nonces.push(nonce);
      return inspectorHtml({
        scriptUri: `${server.origin}/dist/webview/inspector.js`,
        cspSource: server.origin,
        nonce,
      });
    });
    await chrome.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    // a real recording: the example program run live against its bindings, its cassette written by ptc run --record
    const dir = await mkdtemp(path.join(tmpdir(), 'ptc-webview-cassette-'));
    try {
      const program = path.resolve(EXAMPLE_BINDINGS, '..', 'cities.ts');
      const cassette = path.join(dir, 'cities.cassette.json');
      const result = JSON.parse(
        await ptcRunJson([program, '--bindings', EXAMPLE_BINDINGS, '--record', cassette], dir),
      ) as RunResult;
      recorded = {
        result,
        calls: (JSON.parse(await readFile(cassette, 'utf8')) as { calls: CassetteCallLike[] }).calls,
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test("runs under a default-src 'none' CSP: the nonce script boots, a script without the nonce is blocked", async () => {
    const page = await openInspector();
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("default-src 'none'");
    const nonce = nonces[nonces.length - 1];
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(await page.evaluate(() => (document.querySelector('script') as HTMLScriptElement).nonce)).toBe(nonce);
    expect(await page.locator('.ptc-empty').textContent()).toContain('No run to show yet');
    expect(await posted(page)).toEqual([{ type: 'ready', restoredRunIds: [] }]);
    expect(await violations(page)).toEqual([]);
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.body.append(script);
    });
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^script-src/)]);
    expect(await page.evaluate(() => (window as unknown as HostWindow).__inline)).toBeUndefined();
    // the theme reached the page: styles from the bundle's constructed sheets apply under the CSP
    expect(await page.locator('h1').evaluate((e) => getComputedStyle(e).color)).toBe('rgb(204, 204, 204)');
    await page.close();
  });

  test('shows the selected run with the renderer components, and every outgoing message passes the schema', async () => {
    const page = await openInspector();
    await send(page, { type: 'load', runs: [RUNS.success, RUNS.timeout], selectedId: RUNS.success.id });
    const sections = await page
      .locator('#ptc-tab-panel [data-section]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-section')));
    expect(sections).toEqual(['summary', 'printed-output', 'return-value', 'timeline', 'footer']);
    expect(await page.locator('#ptc-run-picker').inputValue()).toBe(RUNS.success.id);
    await page.locator('#ptc-run-picker').selectOption(RUNS.timeout.id);
    expect(await page.locator('#ptc-tab-panel .ptc-failure').getAttribute('data-kind')).toBe('timeout');
    expect(await page.locator('#ptc-tab-panel .ptc-failure-head').textContent()).toContain(
      'ran past its 1500 ms deadline',
    );
    await page.locator('[data-action="rerun"]').click();
    await page.locator('[data-action="open-cassette"]').click();
    const messages = await posted(page);
    expect(messages.slice(1)).toEqual([{ type: 'rerun', cellId: 'cell-1' }, { type: 'open-cassette' }]);
    for (const message of messages) expect(parseInspectorToHost(message).ok).toBe(true);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  test('"What the model sees" is the exact run_code text with its UTF-8 size, and copies exactly', async () => {
    const page = await openInspector();
    const stringRun = run('run-string', 'nothing-returned', 'cell 2 · run 1');
    stringRun.payload.result.value = 'café 👩‍💻\nsecond line';
    stringRun.payload.result.logs = ['→ start'];
    await send(page, { type: 'load', runs: [RUNS.success, RUNS.timeout, stringRun], selectedId: RUNS.success.id });
    await page.locator('#ptc-tab-model').click();
    const success = RUNS.success.payload.result;
    // an independent oracle: logs joined by newlines, then the value as 2-space JSON (strings raw)
    const cases: [InspectorRun, string][] = [
      [RUNS.success, `${success.logs.join('\n')}\n${JSON.stringify(success.value, null, 2)}`],
      [
        RUNS.timeout,
        'code run failed (timeout): execution deadline reached (1500ms)\n\nCaptured output:\nlooked up u-42',
      ],
      [stringRun, '→ start\ncafé 👩‍💻\nsecond line'],
    ];
    for (const [selected, expected] of cases) {
      await page.locator('#ptc-run-picker').selectOption(selected.id);
      expect(await page.locator('.ptc-model-text').textContent()).toBe(expected);
      const size = page.locator('.ptc-model-size');
      expect(Number(await size.getAttribute('data-bytes'))).toBe(Buffer.byteLength(expected, 'utf8'));
      expect(await size.textContent()).toContain(' bytes');
      expect(await page.locator('.ptc-model-view').getAttribute('data-outcome')).toBe(
        selected.payload.result.error === undefined ? 'success' : 'failure',
      );
    }
    await page.locator('.ptc-model-view .ptc-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(cases[2]![1]);
    await page.close();
  });

  test('Diff puts two runs side by side and highlights the first divergence', async () => {
    const page = await openInspector();
    await send(page, { type: 'load', runs: [RUNS.live, RUNS.replay], selectedId: RUNS.replay.id });
    await page.locator('#ptc-tab-diff').click();
    expect(await page.locator('#ptc-diff-left').inputValue()).toBe(RUNS.live.id);
    expect(await page.locator('#ptc-diff-right').inputValue()).toBe(RUNS.replay.id);
    expect(await page.locator('.ptc-diff-summary').textContent()).toMatch(
      /^First divergence: call #3 tools\.fetch: args, outcome differ/,
    );
    const first = page.locator('.ptc-first-divergence');
    expect(await first.count()).toBe(1);
    expect(await first.getAttribute('data-row')).toBe('2');
    expect(await first.getAttribute('data-differences')).toContain('args');
    expect(await first.locator('.ptc-diff-mark').count()).toBeGreaterThan(0);
    // the calls before it agree
    expect(
      await page
        .locator('.ptc-diff-calls tbody tr[data-row]')
        .evaluateAll((rows) => rows.map((r) => r.className.split(' ')[0])),
    ).toEqual(['ptc-diff-same', 'ptc-diff-same', 'ptc-diff-changed', 'ptc-diff-same']);
    expect(await page.locator('[data-section="diff-logs"] .ptc-section-meta').textContent()).toBe('1 line differs');
    expect(await page.locator('[data-section="diff-value"] .ptc-diff-note').textContent()).toBe(
      'cell 1 · run 4 · replay returned no value (it failed).',
    );
    await page.getByRole('button', { name: 'Jump to it' }).click();
    expect(await page.evaluate(() => document.activeElement?.classList.contains('ptc-first-divergence'))).toBe(true);
    await first.locator('.ptc-row-toggle').click();
    expect(await page.locator('.ptc-diff-detail:not([hidden]) [role="tree"]').count()).toBeGreaterThanOrEqual(2);
    await page.getByRole('button', { name: 'Swap left and right' }).click();
    expect(await page.locator('#ptc-diff-left').inputValue()).toBe(RUNS.replay.id);
    // identical runs say so instead of highlighting anything
    await page.locator('#ptc-diff-right').selectOption(RUNS.replay.id);
    expect(await page.locator('#ptc-tab-panel .ptc-empty').textContent()).toBe('Pick two different runs to compare.');
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  test('a new run becomes the right side of the diff, and the state survives a reload without the host', async () => {
    const page = await openInspector();
    await send(page, { type: 'load', runs: [RUNS.success, RUNS.live], selectedId: RUNS.live.id });
    await send(page, { type: 'add-run', run: RUNS.replay, select: true });
    await page.locator('#ptc-tab-diff').click();
    expect(await page.locator('#ptc-diff-left').inputValue()).toBe(RUNS.live.id);
    expect(await page.locator('#ptc-diff-right').inputValue()).toBe(RUNS.replay.id);
    await page.locator('#ptc-tab-model').click();
    await page.locator('#ptc-run-picker').selectOption(RUNS.success.id);
    await page.reload();
    await page.waitForSelector('.ptc-inspector-header');
    // nothing was sent after the reload: everything below comes from getState
    expect(await posted(page)).toEqual([
      { type: 'ready', restoredRunIds: [RUNS.success.id, RUNS.live.id, RUNS.replay.id] },
    ]);
    expect(await page.locator('#ptc-tab-model').getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('#ptc-run-picker').inputValue()).toBe(RUNS.success.id);
    expect(await page.locator('.ptc-model-text').textContent()).toContain('found 3 hits');
    await page.locator('#ptc-tab-diff').click();
    expect(await page.locator('#ptc-diff-right').inputValue()).toBe(RUNS.replay.id);
    await page.close();
  });

  test('a run nested 200 000 deep and a run of 5 000 calls arrive as JSON text, render, diff and survive a reload', async () => {
    const page = await openInspector();
    const deep = run('run-deep', 'deep-200000', 'cell 3 · deep');
    const many = run('run-many', 'calls-summarized', 'cell 4 · many calls');
    // what the extension posts: the message as JSON text (its own serialization, and the page's structured clone,
    // recurse)
    const envelope = encodeHostToInspector({ type: 'load', runs: [many, deep], selectedId: deep.id });
    await page.evaluate((m) => window.postMessage(m, '*'), envelope);
    expect(await page.locator('#ptc-tab-panel [data-section="return-value"] .ptc-section-meta').textContent()).toBe(
      'array(1)',
    );
    await page.locator('#ptc-tab-model').click();
    expect((await page.locator('.ptc-model-text').textContent())?.startsWith('[\n  [\n')).toBe(true);
    await page.locator('#ptc-tab-run').click();
    await page.locator('#ptc-run-picker').selectOption(many.id);
    expect(await page.locator('#ptc-tab-panel .ptc-summary-facts').textContent()).toContain('5\u202f000 calls');
    expect(await page.locator('#ptc-tab-panel .ptc-call-counts li').allTextContents()).toEqual([
      'tools.echo: 4\u202f500 calls · 4\u202f500 ok · 0 failed',
      'tools.fail: 500 calls · 0 ok · 500 failed',
    ]);
    await page.locator('#ptc-tab-diff').click();
    expect(await page.locator('.ptc-diff-summary').textContent()).not.toBe('');
    await page.reload();
    await page.waitForSelector('.ptc-inspector-header');
    expect(await posted(page)).toEqual([{ type: 'ready', restoredRunIds: [many.id, deep.id] }]);
    await page.locator('#ptc-tab-run').click();
    await page.locator('#ptc-run-picker').selectOption(deep.id);
    expect(await page.locator('#ptc-tab-panel [data-section="return-value"] .ptc-section-meta').textContent()).toBe(
      'array(1)',
    );
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  test('host messages are validated: a malformed one shows a banner, foreign window messages are ignored', async () => {
    const page = await openInspector();
    await send(page, { type: 'load', runs: [RUNS.success] });
    await send(page, { source: 'some-other-extension', data: 1 });
    expect(await page.locator('.ptc-banner').count()).toBe(0);
    await send(page, { type: 'add-run', run: { ...RUNS.timeout, payload: { result: { logs: 'not a list' } } } });
    expect(await page.locator('.ptc-banner[role="alert"]').textContent()).toContain(
      'The extension sent a message the inspector cannot read',
    );
    // the bad message changed nothing
    expect(await page.locator('#ptc-run-picker option').count()).toBe(1);
    await send(page, { type: 'error', message: 'The cassette <b>x</b> is unreadable' });
    expect(await page.locator('.ptc-banner span').textContent()).toBe('The cassette <b>x</b> is unreadable');
    expect(await page.locator('.ptc-banner b').count()).toBe(0);
    await page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await page.locator('.ptc-banner').count()).toBe(0);
    await page.close();
  });

  test('a cassette file shows its recorded calls, says it has no model text, and diffs against the run that recorded it', async () => {
    const page = await openInspector();
    const cell: InspectorRun = {
      id: 'run-cities',
      label: 'cell 1 · run 1 · mock',
      source: 'cell',
      payload: { result: recorded.result, language: 'typescript', cellId: 'cell-1' },
    };
    const tape = cassetteRun({
      id: 'cassette-cities',
      label: 'cities.cassette.json',
      calls: recorded.calls,
      language: 'typescript',
    });
    await send(page, { type: 'load', runs: [cell] });
    await send(page, { type: 'add-run', run: tape, select: true });
    expect(await page.locator('#ptc-run-picker option:checked').textContent()).toBe(
      'cities.cassette.json — cassette, 4 recorded calls',
    );
    expect(await page.locator('.ptc-cassette-note').textContent()).toContain('binding calls only (4 calls');
    expect(await page.locator('#ptc-tab-panel .ptc-bar').count()).toBe(4);
    expect(await page.locator('#ptc-tab-panel .ptc-bar.ptc-bar-failed').count()).toBe(1);
    // nothing ran: no summary, footer or sandbox verdict, and no re-run
    expect(await page.locator('#ptc-tab-panel [data-section="footer"], #ptc-tab-panel .ptc-summary').count()).toBe(0);
    expect(await page.locator('[data-action="rerun"]').count()).toBe(0);
    await page.locator('#ptc-tab-model').click();
    expect(await page.locator('.ptc-cassette-note').textContent()).toContain('nothing was returned to a model');
    await page.locator('#ptc-tab-diff').click();
    expect(await page.locator('#ptc-diff-left').inputValue()).toBe(cell.id);
    expect(await page.locator('#ptc-diff-right').inputValue()).toBe(tape.id);
    // the recording answers every call exactly as the run saw it; only the printed output is missing
    expect(await page.locator('[data-section="diff-calls"] .ptc-section-meta').textContent()).toBe('4 vs 4 · 0 differ');
    expect(await page.locator('.ptc-diff-summary').textContent()).toMatch(/^First divergence: printed output, line 1/);
    expect(await violations(page)).toEqual([]);
    await page.close();
  });

  test('the three views are keyboard reachable and screenshotted in light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const page = await openInspector(theme);
      // a short viewport: full-page pictures then end where the content ends
      await page.setViewportSize({ width: 1100, height: 300 });
      await send(page, {
        type: 'load',
        runs: [RUNS.success, RUNS.timeout, RUNS.live, RUNS.replay],
        selectedId: RUNS.success.id,
      });
      await page.locator('#ptc-tab-run').focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.locator('#ptc-tab-model').getAttribute('aria-selected')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('ptc-tab-model');
      await page.keyboard.press('End');
      expect(await page.locator('#ptc-tab-diff').getAttribute('aria-selected')).toBe('true');
      for (const tab of ['run', 'model', 'diff'] as const) {
        // diff tables scroll inside 60vh: the diff picture needs a taller window to show them whole
        await page.setViewportSize({ width: 1100, height: tab === 'diff' ? 1100 : 300 });
        await page.locator(`#ptc-tab-${tab}`).click();
        if (tab === 'model') await page.locator('#ptc-run-picker').selectOption(RUNS.timeout.id);
        await page.screenshot({ path: path.join(SHOTS, `inspector-${tab}-${theme}.png`), fullPage: true });
      }
      expect(await violations(page)).toEqual([]);
      await page.close();
    }
  }, 180_000);
});
