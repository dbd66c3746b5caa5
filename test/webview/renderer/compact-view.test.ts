import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { fixturePayload } from '../fixtures/run-results.mjs';

// The notebook renderer's default view: printed lines and value first, one status line, each fact said once, the
// full view one click away. Screenshots of it in light and dark go to test-results/webview/compact/.
const SHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'webview', 'compact');
const gate = chromiumGate();

let chrome: LaunchedChromium;
let server: PageServer;
let page: Page;

type Payload = ReturnType<typeof fixturePayload>;

async function show(id: string, payload: unknown): Promise<void> {
  await page.evaluate(([i, text]) => window.harness.renderText(i!, text!), [id, JSON.stringify(payload)] as const);
}

// The visible text of an output, as a person reads it (hidden parts left out).
async function visibleText(id: string): Promise<string> {
  return page.evaluate((i) => {
    const root = document.querySelector(`#${i}`)!.shadowRoot!.querySelector('.ptc-result') as HTMLElement;
    return root.innerText;
  }, id);
}

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

function withResult(base: Payload, changes: Record<string, unknown>, extra: Record<string, unknown> = {}): Payload {
  return { ...base, ...extra, result: { ...base.result, ...changes } } as Payload;
}

describe.skipIf(!gate.usable)(gate.title('compact result view in Chromium'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    page = await chrome.context.newPage();
    await page.setViewportSize({ width: 980, height: 1200 });
    await page.goto(`${server.origin}/page/renderer.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await mkdir(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test('a success shows printed lines, the value and one status line; the full view is one click away and back', async () => {
    await page.evaluate(() => window.harness.clear());
    const success = fixturePayload('success');
    await show('ok', withResult(success, { startupMs: 30 }, { cellMs: 2_400 }));
    const root = page.locator('#ok .ptc-result');
    expect(await root.getAttribute('data-view')).toBe('compact');
    // the program's output first, then the status line; no section headings, no timeline
    const parts = await page
      .locator('#ok .ptc-result > *')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-part') ?? e.getAttribute('data-section')));
    expect(parts).toEqual(['printed-output', 'return-value', 'summary']);
    expect(await page.locator('#ok .ptc-section-toggle').count()).toBe(0);
    expect(await page.locator('#ok .ptc-log-entry').count()).toBe(2);
    const text = await visibleText('ok');
    // one duration story: the program's own time, the cell's whole time named as such
    expect(await page.locator('#ok [data-fact="duration"]').textContent()).toBe('51 ms (cell 2.40 s)');
    expect(await page.locator('#ok [data-fact="duration"]').getAttribute('title')).toBe(
      'the program ran 51 ms, after 30 ms of process start-up, the cell took 2.40 s in all, counting its queue, the bindings and process start-up.',
    );
    expect(await page.locator('#ok [data-fact="calls"]').textContent()).toBe('4 calls');
    expect(await page.locator('#ok [data-fact="mode"]').textContent()).toBe('mock');
    for (const fact of ['51 ms', '4 calls', 'mock', 'Succeeded']) expect(occurrences(text, fact), fact).toBe(1);
    // Details: every section, the status line on top; Compact goes back
    const toggle = page.locator('#ok [data-toggle="details"]');
    expect(await toggle.textContent()).toBe('Details');
    await toggle.click();
    expect(await root.getAttribute('data-view')).toBe('full');
    const sections = await page
      .locator('#ok .ptc-result > [data-section]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-section')));
    expect(sections).toEqual(['summary', 'printed-output', 'return-value', 'timeline', 'footer']);
    // the Run section adds what the status line does not say, and does not repeat the mode or the duration
    const footer = (await page.locator('#ok [data-section="footer"] .ptc-footer').textContent()) ?? '';
    expect(footer).toContain('full via landlock');
    expect(footer).not.toContain('mock');
    const back = page.locator('#ok [data-toggle="details"]');
    expect(await back.textContent()).toBe('Compact');
    expect(await back.evaluate((b) => b === (b.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await back.click();
    expect(await root.getAttribute('data-view')).toBe('compact');
  });

  test('a failure is said once: its message and code frame, never a second card or a repeated title', async () => {
    await page.evaluate(() => window.harness.clear());
    await show('exc', fixturePayload('failure-exception'));
    const text = await visibleText('exc');
    expect(occurrences(text, "Cannot read properties of null (reading 'name')")).toBe(1);
    expect(occurrences(text, 'Exception')).toBe(1);
    expect(await page.locator('#exc [data-part="failure"] .ptc-code-frame').count()).toBe(1);
    expect(await page.locator('#exc .ptc-status').textContent()).toBe('✗Exception');
    // the output-limit cell says the cut once, in plain words (not the runtime's wire message)
    await show('limit', fixturePayload('failure-output-limit'));
    const limit = await visibleText('limit');
    expect(occurrences(limit, 'output cap')).toBe(1);
    expect(limit).not.toContain('outer output');
    expect(limit).not.toMatch(/truncated at/);
  });

  test('a binding failure links to its call; "Show in timeline" opens the full view with the call selected', async () => {
    await page.evaluate(() => window.harness.clear());
    await show('bind', fixturePayload('binding-failure'));
    await page.locator('#bind [data-part="failure"] .ptc-failing-call .ptc-link').click();
    await page.waitForFunction(
      () => document.querySelector('#bind')?.shadowRoot?.querySelector('.ptc-bar[aria-pressed="true"]') !== null,
    );
    expect(await page.locator('#bind .ptc-result').getAttribute('data-view')).toBe('full');
  });

  test('a cancelled run is not a failure: no red ✗, no failure card, the printed lines stay', async () => {
    await page.evaluate(() => window.harness.clear());
    await show('stop', fixturePayload('failure-abort'));
    expect(await page.locator('#stop .ptc-result').getAttribute('data-outcome')).toBe('cancelled');
    expect(await page.locator('#stop .ptc-status').textContent()).toBe('■Cancelled');
    expect(await page.locator('#stop .ptc-failure').count()).toBe(0);
    expect(await page.locator('#stop .ptc-status-failure').count()).toBe(0);
    const colours = await page.evaluate(() => {
      const shadow = document.querySelector('#stop')!.shadowRoot!;
      return getComputedStyle(shadow.querySelector('.ptc-status')!).color;
    });
    const errorColour = await page.evaluate(() =>
      getComputedStyle(document.body).getPropertyValue('--vscode-errorForeground').trim(),
    );
    expect(colours).not.toBe(errorColour);
  });

  test('a run that never started a process claims no sandbox', async () => {
    await page.evaluate(() => window.harness.clear());
    const base = fixturePayload('failure-exception');
    const syntax = withResult(base, {
      logs: [],
      calls: [],
      durationMs: 0.2,
      started: false,
      error: {
        kind: 'exception',
        message: 'SyntaxError: Expression expected (program.ts:3:1)',
        location: { line: 3, column: 1 },
      },
    });
    await show('syntax', syntax);
    expect(await page.locator('#syntax [data-fact="started"]').textContent()).toBe('not started');
    await page.locator('#syntax [data-toggle="details"]').click();
    const footer = (await page.locator('#syntax [data-section="footer"]').textContent()) ?? '';
    expect(footer).toContain('the run ended before a process was started');
    expect(footer).not.toMatch(/full|landlock/);
    // the same run with a process does claim its sandbox (so the check above can fail)
    await show('ran', withResult(syntax, { started: undefined }));
    await page.locator('#ran [data-toggle="details"]').click();
    expect(await page.locator('#ran [data-section="footer"]').textContent()).toContain('full');
  });

  test('Replay is enabled exactly when the cell has a cassette, and a saved output asks the host', async () => {
    await page.evaluate(() => window.harness.clear());
    const before = await page.evaluate(() => window.harness.posted.length);
    await show('no-tape', fixturePayload('success'));
    const replay = page.locator('#no-tape [data-action="replay"]');
    expect(await replay.isDisabled()).toBe(true);
    const asked = (await page.evaluate(() => window.harness.posted)).slice(before);
    expect(asked).toEqual([{ type: 'cell-state-request', requestId: 'no-tape#state', cellId: 'cell-1' }]);
    await page.evaluate(() =>
      window.harness.send({ type: 'cell-state', cellId: 'cell-1', hasCassette: true, running: false }),
    );
    expect(await replay.isDisabled()).toBe(false);
    await show('tape', { ...fixturePayload('success'), cellId: 'cell-2', hasCassette: true });
    expect(await page.locator('#tape [data-action="replay"]').isDisabled()).toBe(false);
    await page.evaluate(() =>
      window.harness.send({ type: 'cell-state', cellId: 'cell-2', hasCassette: false, running: false }),
    );
    expect(await page.locator('#tape [data-action="replay"]').isDisabled()).toBe(true);
  });

  test('a result trimmed to the output budget says what was left out, once', async () => {
    await page.evaluate(() => window.harness.clear());
    const note = 'This result (32.7 MiB) is over the 1.0 MiB per-cell output budget; left out: 87455 call record(s).';
    await show('trimmed', { ...fixturePayload('success'), note });
    expect(await page.locator('#trimmed [data-part="note"]').textContent()).toBe(note);
    await page.locator('#trimmed [data-toggle="details"]').click();
    expect(occurrences(await visibleText('trimmed'), 'per-cell output budget')).toBe(1);
  });

  test('the timeline starts at the hand-over: process start-up does not push the calls to the right', async () => {
    await page.evaluate(() => window.harness.clear());
    const base = fixturePayload('success');
    // 140 ms of start-up, then the calls
    const calls = base.result.calls.map((c) => ({ ...c, startedAtMs: c.startedAtMs + 140 }));
    await show('late', withResult(base, { calls, startupMs: 140, durationMs: 200 }));
    await page.locator('#late [data-toggle="details"]').click();
    const first = await page
      .locator('#late .ptc-bar[data-call-id="1"]')
      .evaluate((b) => parseFloat((b as HTMLElement).style.left));
    // call 1 starts 6 ms after the hand-over; the axis runs to the last call's end (215 ms): 6 / 75 = 8 %, not 146 /
    // 215
    expect(first).toBeCloseTo(8, 1);
    expect(await page.locator('#late .ptc-bar[data-call-id="1"]').getAttribute('aria-label')).toContain(
      'started at 6 ms',
    );
  });

  test('compact outputs are photographed in light and dark, and the themes differ', async () => {
    const shots: [string, Payload][] = [
      ['success', withResult(fixturePayload('success'), { startupMs: 30 }, { cellMs: 2_400 })],
      ['exception', fixturePayload('failure-exception')],
      ['timeout', fixturePayload('failure-timeout')],
      ['cancelled', fixturePayload('failure-abort')],
      ['python', fixturePayload('python-exception')],
    ];
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => window.harness.setTheme(t), theme);
      for (const [name, payload] of shots) {
        await page.evaluate(() => window.harness.clear());
        await show('shot', payload);
        await page.mouse.move(0, 0);
        const box = await page.locator('#shot').boundingBox();
        if (box === null) throw new Error(`${name}: nothing to photograph`);
        await page.screenshot({
          path: path.join(SHOTS, `${name}-${theme}.png`),
          clip: { x: 0, y: Math.max(0, box.y - 8), width: 980, height: box.height + 16 },
        });
      }
    }
    for (const [name] of shots) {
      const [light, dark] = await Promise.all([
        readFile(path.join(SHOTS, `${name}-light.png`)),
        readFile(path.join(SHOTS, `${name}-dark.png`)),
      ]);
      expect(light.length).toBeGreaterThan(2_000);
      expect(light.equals(dark)).toBe(false);
    }
  }, 120_000);
});
