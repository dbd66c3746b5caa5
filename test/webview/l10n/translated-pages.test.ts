import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { InspectorRun } from '../../../webview/protocol/inspector-messages.js';
import { createNonce, inspectorHtml } from '../../../webview/inspector/inspector-html.js';
import { L10N_LIMITS } from '../../../webview/protocol/l10n-bundle.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { fixturePayload } from '../fixtures/run-results.mjs';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
const PAGE = path.resolve(import.meta.dirname, '..', 'page');
const gate = chromiumGate();

// A pseudo-translation of the committed bundle: every message wrapped in ⟦…⟧, its {n} placeholders kept.
const english = JSON.parse(readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
const pseudo = Object.fromEntries(Object.keys(english).map((key) => [key, `⟦${key}⟧`]));
const wrapped = (message: string): string => `⟦${message}⟧`;

let chrome: LaunchedChromium;
let server: PageServer;

describe.skipIf(!gate.usable)(gate.title('the renderer and the inspector in the display language (Chromium)'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  describe('notebook renderer', () => {
    async function openRenderer(query = ''): Promise<Page> {
      const page = await chrome.context.newPage();
      await page.goto(`${server.origin}/page/renderer.html${query}`);
      await page.waitForSelector('body[data-ready="true"]');
      return page;
    }
    const render = (page: Page, name: string, id = name): Promise<string> => page.evaluate(([n, i]) => window.harness.render(n, i), [name, id] as const);
    const send = (page: Page, message: unknown): Promise<void> => page.evaluate((m) => window.harness.send(m), message);
    const texts = (page: Page, id: string, selector: string): Promise<string[]> =>
      page.locator(`#${id} ${selector}`).evaluateAll((els) => els.map((e) => e.textContent ?? ''));

    test('asks the host for the bundle, draws English at once, and redraws in the display language when it arrives', async () => {
      const page = await openRenderer();
      expect(await page.evaluate(() => window.harness.posted)).toEqual([{ type: 'l10n-request', requestId: 'l10n' }]);
      await render(page, 'success');
      expect(await texts(page, 'success', '[data-action]')).toEqual(['Open in inspector', 'Re-run', 'Record', 'Replay']);
      expect(await page.locator('#success .ptc-status').textContent()).toBe('✓Succeeded');

      await send(page, { type: 'l10n', bundle: pseudo });
      await expect.poll(() => texts(page, 'success', '[data-action]')).toEqual(['Open in inspector', 'Re-run', 'Record', 'Replay'].map(wrapped));
      expect(await page.locator('#success .ptc-status').textContent()).toBe(`✓${wrapped('Succeeded')}`);
      expect(await page.locator('#success [data-toggle="details"]').textContent()).toBe(wrapped('Details'));
      expect(await page.locator('#success [data-action="rerun"]').getAttribute('title')).toBe(wrapped('Run this cell again'));
      // an output drawn after the bundle arrived is in the display language from the start
      await render(page, 'failure-timeout', 'later');
      expect(await texts(page, 'later', '[data-action]')).toEqual(['Open in inspector', 'Re-run', 'Record', 'Replay'].map(wrapped));
      // the redraw kept one live output per item
      expect(await page.evaluate(() => window.harness.active())).toBe(2);
      await page.close();
    });

    test('the full view and an unreadable output are translated too, placeholders filled', async () => {
      const page = await openRenderer('?view=full');
      await send(page, { type: 'l10n', bundle: pseudo });
      await render(page, 'success');
      const titles = await texts(page, 'success', '.ptc-section-title');
      expect(titles.length).toBeGreaterThan(2);
      for (const title of titles) expect(title).toMatch(/^⟦.+⟧$/);
      await page.evaluate(() => window.harness.renderText('broken', '{"not json'));
      const invalid = await page.locator('#broken [data-section="invalid"]').textContent();
      expect(invalid).toContain(wrapped('This PTC result could not be displayed.'));
      expect(invalid).toMatch(/⟦The output is not valid JSON: [^{}]+⟧/);
      await page.close();
    });

    test.each([
      ['a message that is not an l10n message', { type: 'l10n', bundle: 'Re-run' }],
      ['a translation that is not a string', { type: 'l10n', bundle: { 'Re-run': 42 } }],
      ['an oversized bundle', { type: 'l10n', bundle: Object.fromEntries(Array.from({ length: L10N_LIMITS.entries + 1 }, (_, i) => [`m${i}`, 'x'])) }],
      ['a translation longer than the limit', { type: 'l10n', bundle: { 'Re-run': 'x'.repeat(L10N_LIMITS.valueLength + 1) } }],
    ])('%s is ignored: the output stays in English', async (_what, message) => {
      const page = await openRenderer();
      await render(page, 'success');
      await send(page, message);
      await send(page, { type: 'cell-state', cellId: 'cell-1', hasCassette: true, running: false });
      // the cell-state message after it was handled, so the hostile one was too
      await expect.poll(() => page.locator('#success [data-action="replay"]').isDisabled()).toBe(false);
      expect(await texts(page, 'success', '[data-action]')).toEqual(['Open in inspector', 'Re-run', 'Record', 'Replay']);
      await page.close();
    });

    test('without renderer messaging nothing is asked and the output is English', async () => {
      const page = await openRenderer('?messaging=0');
      await render(page, 'success');
      expect(await page.evaluate(() => window.harness.posted)).toEqual([]);
      expect(await page.locator('#success [data-toggle="details"]').textContent()).toBe('Details');
      await page.close();
    });
  });

  describe('run inspector', () => {
    let hostScript: string;
    const RUN: InspectorRun = {
      id: 'run-1',
      label: 'cell 1 · run 1',
      source: 'cell',
      createdAt: '2026-12-03T11:00:00.000Z',
      payload: fixturePayload('success'),
    };

    beforeAll(async () => {
      const themes = await readFile(path.join(PAGE, 'themes.css'), 'utf8');
      hostScript = `window.__PTC_THEME_CSS = ${JSON.stringify(themes)};\n${await readFile(path.join(PAGE, 'inspector-host.js'), 'utf8')}`;
    });

    // The panel document as the extension builds it, here with a bundle the host handed over.
    async function openInspector(route: string, bundle: unknown): Promise<Page> {
      server.route(route, 'text/html', () =>
        inspectorHtml({
          scriptUri: `${server.origin}/dist/webview/inspector.js`,
          cspSource: server.origin,
          nonce: createNonce(),
          // the html writer is typed; a hostile bundle is forced through to test the page's own check
          l10n: bundle as Record<string, string>,
          text: { title: wrapped('PTC Run Inspector'), loading: wrapped('Loading the run inspector…') },
        }),
      );
      const page = await chrome.context.newPage();
      await page.addInitScript(hostScript);
      await page.goto(`${server.origin}${route}`);
      await page.waitForSelector('.ptc-inspector-header');
      return page;
    }

    test('draws every view in the display language from its first paint', async () => {
      const page = await openInspector('/inspector-l10n.html', pseudo);
      expect(await page.title()).toBe(wrapped('PTC Run Inspector'));
      expect(await page.locator('h1').textContent()).toBe(wrapped('Run inspector'));
      expect(await page.locator('.ptc-empty').textContent()).toBe(
        wrapped('No run to show yet. Run a cell and choose "Open in inspector", or open a cassette file.'),
      );
      expect(await page.locator('[role="tab"]').allTextContents()).toEqual(['Run', 'What the model sees', 'Diff'].map(wrapped));
      // what panel.webview.postMessage does: a window message event in the page
      const load: unknown = JSON.parse(JSON.stringify({ type: 'load', runs: [RUN], selectedId: RUN.id }));
      await page.evaluate((m) => window.postMessage(m, '*'), load);
      await expect.poll(() => page.locator('[data-action="rerun"]').textContent()).toBe(wrapped('Re-run cell'));
      expect(await page.locator('[data-action="open-cassette"]').textContent()).toBe(wrapped('Open cassette…'));
      const titles = await page.locator('#ptc-tab-panel .ptc-section-title').allTextContents();
      expect(titles.length).toBeGreaterThan(2);
      for (const title of titles) expect(title).toMatch(/^⟦.+⟧$/);
      await page.close();
    });

    test('a bundle with a non-string translation is refused by the page: English stays', async () => {
      const page = await openInspector('/inspector-hostile-l10n.html', { 'Run inspector': { message: 'x' } });
      expect(await page.locator('h1').textContent()).toBe('Run inspector');
      await page.close();
    });
  });
});
