import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';

// MCP answers in call details: images show as images (decoded by the browser), never as base64 text; anything that
// is not a well-formed raster image stays in the JSON view; error code/data and progress are shown with the call.
const gate = chromiumGate();
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64');

const call = (id: number, name: string, extra: Record<string, unknown>) => ({
  id,
  global: 'ev',
  name,
  args: {},
  startedAtMs: id * 10,
  durationMs: 8,
  ...extra,
});
const payload = {
  language: 'typescript',
  cellId: 'cell-images',
  result: {
    language: 'typescript',
    logs: [],
    sandbox: {
      network: 'denied',
      filesystem: 'read-only',
      childProcess: 'denied',
      enforcement: 'full',
      mechanisms: ['landlock'],
    },
    durationMs: 90,
    mode: 'live',
    value: 'done',
    calls: [
      call(1, 'get-tiny-image', {
        ok: true,
        value: [
          { type: 'text', text: "Here's the image you requested:" },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'demo://pixel', mimeType: 'image/png', blob: PNG } },
        ],
      }),
      call(2, 'not-images', {
        ok: true,
        value: [
          { type: 'image', data: SVG, mimeType: 'image/svg+xml' },
          { type: 'image', data: 'not base64!', mimeType: 'image/png' },
        ],
      }),
      call(3, 'rpc-error', {
        ok: false,
        message: 'the fixture refuses these arguments',
        errorCode: -32602,
        errorData: { field: 'when' },
      }),
      call(4, 'long', {
        ok: true,
        value: [{ type: 'text', text: 'done' }],
        progress: [
          { atMs: 45, progress: 1, total: 2 },
          { atMs: 47, progress: 2, total: 2, message: 'almost' },
        ],
        progressCount: 2,
      }),
    ],
  },
};

let chrome: LaunchedChromium;
let server: PageServer;
let page: Page;

describe.skipIf(!gate.usable)(gate.title('MCP content in call details (Chromium)'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    page = await chrome.context.newPage();
    await page.goto(`${server.origin}/page/renderer.html?view=full`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate((text) => window.harness.renderText('images', text), JSON.stringify(payload));
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  const select = (id: number) => page.locator(`#images .ptc-bar[data-call-id="${id}"]`).click();

  test('an image item and an image resource show as decoded images, labelled with where they sit', async () => {
    await select(1);
    const images = page.locator('#images .ptc-call-images img');
    await expect.poll(() => images.count()).toBe(2);
    await expect
      .poll(() =>
        images.evaluateAll((els) =>
          els.map((e) => (e as HTMLImageElement).complete && (e as HTMLImageElement).naturalWidth),
        ),
      )
      .toEqual([1, 1]);
    expect(await page.locator('#images .ptc-call-images figcaption').allTextContents()).toEqual([
      'image/png at $[1]',
      'image/png at $[2].resource',
    ]);
    expect(await images.first().getAttribute('alt')).toBe('Image image/png at $[1] in the answer of call #1');
  });

  test('SVG and malformed base64 are not shown as images', async () => {
    await select(2);
    await expect.poll(() => page.locator('#images .ptc-call[data-call-id="2"]').count()).toBe(1);
    expect(await page.locator('#images .ptc-call-images').count()).toBe(0);
  });

  test("a failed call shows its error code and data; a progressing call says so in its details and its bar's label", async () => {
    await select(3);
    const details = page.locator('#images .ptc-call-error-details');
    await expect.poll(() => details.count()).toBe(1);
    expect(await details.textContent()).toContain('-32602');
    expect(await details.textContent()).toContain('when');
    await select(4);
    await expect
      .poll(() => page.locator('#images .ptc-call-progress').textContent())
      .toBe('Progress: reported progress 2 times; last: 2 of 2, almost');
    const bar = page.locator('#images .ptc-bar[data-call-id="4"]');
    expect(await bar.getAttribute('class')).toContain('ptc-bar-progress');
    expect(await bar.getAttribute('aria-label')).toContain('reported progress 2 times; last: 2 of 2, almost');
  });
});
