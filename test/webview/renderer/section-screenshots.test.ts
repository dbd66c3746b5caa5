import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';

// One picture per renderer section in light and dark (docs/screenshots/renderer/ holds the reviewed copies).
const SHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'webview', 'sections');
const MARGIN = 10;
const gate = chromiumGate();

let chrome: LaunchedChromium;
let server: PageServer;
let page: Page;

interface Shot {
  name: string;
  fixture: string;
  // what to photograph inside the output's shadow root ('' = the whole output)
  selector: string;
  // puts the section in the state worth showing (a call selected, a node expanded)
  prepare?(output: Locator): Promise<void>;
}

const SHOT_LIST: Shot[] = [
  { name: 'overview', fixture: 'success', selector: '' },
  { name: 'printed-output', fixture: 'logs-mixed', selector: '[data-section="printed-output"]' },
  {
    name: 'return-value',
    fixture: 'success',
    selector: '[data-section="return-value"]',
    prepare: async (output) => {
      await output.locator('[role="treeitem"][aria-level="2"] > .ptc-row').first().click();
      await output.locator('[role="treeitem"][aria-level="2"] > .ptc-row').nth(2).click();
    },
  },
  { name: 'failure-binding', fixture: 'binding-failure', selector: '[data-section="failure"]' },
  { name: 'failure-timeout', fixture: 'failure-timeout', selector: '[data-section="failure"]' },
  { name: 'failure-python', fixture: 'python-exception', selector: '[data-section="failure"]' },
  {
    name: 'timeline',
    fixture: 'timeline-300',
    selector: '[data-section="timeline"]',
    prepare: async (output) => {
      await output.locator('.ptc-bar[data-call-id="143"]').click();
    },
  },
  {
    name: 'timeline-call',
    fixture: 'binding-failure',
    selector: '[data-section="timeline"]',
    prepare: async (output) => {
      await output.locator('.ptc-bar[data-call-id="2"]').click();
    },
  },
  { name: 'footer', fixture: 'failure-sandbox-unavailable', selector: '[data-section="footer"]' },
];

// The section's box plus a margin of page background, so pictures do not end in a hard crop.
async function shoot(target: Locator, file: string): Promise<Buffer> {
  const box = await target.boundingBox();
  if (box === null) throw new Error(`${file}: nothing to photograph`);
  const clip = {
    x: Math.max(0, box.x - MARGIN),
    y: Math.max(0, box.y - MARGIN),
    width: box.width + 2 * MARGIN,
    height: box.height + 2 * MARGIN,
  };
  return page.screenshot({ path: file, clip });
}

describe.skipIf(!gate.usable)(gate.title('renderer section screenshots in Chromium'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    page = await chrome.context.newPage();
    // the test page's outputs are 920 px wide; the viewport leaves room for the margin around each picture
    await page.setViewportSize({ width: 980, height: 1400 });
    await page.goto(`${server.origin}/page/renderer.html?view=full`);
    await page.waitForSelector('body[data-ready="true"]');
    await mkdir(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test('every section is photographed in light and dark, and the themes really differ', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => window.harness.setTheme(t), theme);
      for (const shot of SHOT_LIST) {
        await page.evaluate(() => window.harness.clear());
        await page.evaluate(([f]) => window.harness.render(f!, 'shot'), [shot.fixture]);
        const output = page.locator('#shot');
        await shot.prepare?.(output);
        // a stable picture: no hover highlight, no caret blink, no focus ring from the clicks above
        await page.mouse.move(0, 0);
        await page.evaluate(() =>
          (document.querySelector('#shot')?.shadowRoot?.activeElement as HTMLElement | null)?.blur(),
        );
        // the section alone, so the margin around it is page background rather than slices of its neighbours
        if (shot.selector !== '') {
          await page.evaluate((selector) => {
            const shadow = document.querySelector('#shot')!.shadowRoot!;
            const keep = shadow.querySelector(selector);
            for (const child of Array.from(shadow.querySelector('.ptc-result')!.children))
              if (child !== keep) (child as HTMLElement).hidden = true;
          }, shot.selector);
        }
        const target = shot.selector === '' ? output : output.locator(shot.selector);
        expect(await target.count()).toBe(1);
        await shoot(target, path.join(SHOTS, `${shot.name}-${theme}.png`));
      }
    }
    for (const shot of SHOT_LIST) {
      const [light, dark] = await Promise.all([
        readFile(path.join(SHOTS, `${shot.name}-light.png`)),
        readFile(path.join(SHOTS, `${shot.name}-dark.png`)),
      ]);
      expect(light.length).toBeGreaterThan(3_000);
      expect(light.equals(dark)).toBe(false);
    }
  }, 240_000);
});
