// The renderer's expectation section in Chromium: a one-line ✓ when the run meets the cell's expectation, and when it
// does not, what was expected, what came and where each field first differs, with Accept as Expected.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ExpectationReport } from '../../../runtime/protocol/expectation-report.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { RECORD_HTML_WRITES } from '../helpers/html-writes.js';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { fixturePayload, HOSTILE } from '../fixtures/run-results.mjs';

const gate = chromiumGate();
let chrome: LaunchedChromium;
let server: PageServer;
let page: Page;

const MISMATCH: ExpectationReport = {
  ok: false,
  checked: [
    { field: 'value', match: 'exact' },
    { field: 'logs', match: 'shape' },
    { field: 'calls', match: 'exact' },
  ],
  mismatches: [
    {
      field: 'value',
      match: 'exact',
      path: '$.cities[2].population',
      reason: 'different value',
      expected: '2102650',
      actual: '2102651',
    },
    {
      field: 'calls',
      match: 'exact',
      path: '$[1].args.name',
      reason: 'different value',
      expected: `"Lyon${HOSTILE.override}"`,
      actual: `"${HOSTILE.script}"`,
    },
  ],
  masked: [{ field: 'value', paths: ['$.id'] }],
};

async function renderWith(id: string, expectation: ExpectationReport | undefined, fixture = 'success'): Promise<void> {
  const payload = {
    ...fixturePayload(fixture),
    cellId: 'cell-1',
    ...(expectation === undefined ? {} : { expectation }),
  };
  await page.evaluate(([i, text]) => window.harness.renderText(i, text), [id, JSON.stringify(payload)] as const);
}

describe.skipIf(!gate.usable)(gate.title('expectation section in Chromium'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    page = await chrome.context.newPage();
    await page.addInitScript(RECORD_HTML_WRITES);
    await page.goto(`${server.origin}/page/renderer.html`);
    await page.waitForSelector('body[data-ready="true"]');
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test('no expectation: no section; a met expectation: one ✓ line naming the compared fields, first in the output', async () => {
    await renderWith('none', undefined);
    expect(await page.locator('#none [data-section="expectation"]').count()).toBe(0);
    await renderWith('met', {
      ok: true,
      checked: [
        { field: 'value', match: 'exact' },
        { field: 'error', match: 'exact' },
      ],
      mismatches: [],
    });
    const sections = await page
      .locator('#met [data-section]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-section')));
    // said before the run's own output, in the compact view (the default) as in the full one
    expect(sections[0]).toBe('expectation');
    expect(sections).toContain('summary');
    expect(await page.locator('#met [data-section="expectation"]').getAttribute('data-ok')).toBe('true');
    expect(await page.locator('#met [data-section="expectation"]').textContent()).toBe(
      '✓ Meets its expectation (value exact, error exact)',
    );
    expect(await page.locator('#met [data-action="accept"]').count()).toBe(0);
  });

  test('a failing run that meets its expectation says "Failed as expected" in plain words, the compared fields in its tooltip', async () => {
    await renderWith(
      'failed-as-expected',
      { ok: true, checked: [{ field: 'error', match: 'exact' }], mismatches: [] },
      'failure-exception',
    );
    const line = page.locator('#failed-as-expected [data-section="expectation"]');
    expect(await line.textContent()).toBe('✓ Failed as expected');
    expect(await line.getAttribute('title')).toBe('Meets its expectation (error exact)');
    expect(await page.locator('#failed-as-expected .ptc-result').getAttribute('data-kind')).toBe('exception');
  });

  test('a mismatch: each differing field with its path, reason, expected and got; masked paths; Accept as Expected posts to the host', async () => {
    await renderWith('differs', MISMATCH);
    const section = page.locator('#differs [data-section="expectation"]');
    expect(await section.getAttribute('data-ok')).toBe('false');
    expect(await section.locator('.ptc-section-title').textContent()).toBe('✗ Does not match the expectation');
    expect(await section.locator('.ptc-section-meta').textContent()).toBe('2 of 3 compared fields differ');
    const blocks = section.locator('.ptc-mismatch');
    expect(await blocks.evaluateAll((els) => els.map((e) => e.getAttribute('data-field')))).toEqual(['value', 'calls']);
    expect(await blocks.nth(0).locator('.ptc-mismatch-head').textContent()).toBe(
      'Return value (exact) first differs at $.cities[2].population: different value',
    );
    expect(await blocks.nth(0).locator('.ptc-mismatch-expected').textContent()).toBe('2102650');
    expect(await blocks.nth(0).locator('.ptc-mismatch-actual').textContent()).toBe('2102651');
    expect(await section.locator('.ptc-expectation-masked').textContent()).toBe('Masked (not compared): value $.id');
    // program data stays text: the script is not parsed, the bidi override is shown as a marker
    expect(await blocks.nth(1).locator('.ptc-mismatch-actual').textContent()).toBe(`"${HOSTILE.script}"`);
    expect(await page.locator('#differs script').count()).toBe(0);
    expect(await blocks.nth(1).locator('.ptc-mismatch-expected').textContent()).not.toContain(HOSTILE.override);
    expect(
      await page.evaluate(() => (window as unknown as { __htmlWrites?: unknown[] }).__htmlWrites?.length ?? 0),
    ).toBe(0);

    const accept = section.locator('[data-action="accept"]');
    expect(await accept.textContent()).toBe('Accept as Expected');
    await page.evaluate(() => (window.harness.posted.length = 0));
    await accept.click();
    const posted = (await page.evaluate(() => window.harness.posted)) as {
      type: string;
      cellId: string;
      requestId: string;
    }[];
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ type: 'accept', cellId: 'cell-1' });
    // the host's ack shows next to the buttons
    await page.evaluate(
      (requestId) =>
        window.harness.send({ type: 'ack', requestId, ok: true, message: 'Accepted the run as expected.' }),
      posted[0]!.requestId,
    );
    await expect
      .poll(() => page.locator('#differs .ptc-action-status').textContent())
      .toBe('Accepted the run as expected.');
  });
});
