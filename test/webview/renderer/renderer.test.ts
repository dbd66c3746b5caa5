import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAILURE_KINDS } from '../../../runtime/protocol/run-result.js';
import { explainFailure, failureTitle } from '../../../webview/shared/failure-kinds.js';
import { untranslated } from '../../../webview/shared/translate.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { RECORD_HTML_WRITES } from '../helpers/html-writes.js';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { fixtureNames, fixturePayload, HOSTILE } from '../fixtures/run-results.mjs';

const SHOTS = path.resolve(import.meta.dirname, '..', '..', '..', 'test-results', 'webview');
const THEMES = ['light', 'dark', 'high-contrast'] as const;
const gate = chromiumGate();

let chrome: LaunchedChromium;
let server: PageServer;
let page: Page;

async function openPage(query = ''): Promise<Page> {
  const p = await chrome.context.newPage();
  await p.addInitScript(RECORD_HTML_WRITES);
  await p.goto(`${server.origin}/page/renderer.html${query}`);
  await p.waitForSelector('body[data-ready="true"]');
  return p;
}

async function render(name: string, id = name): Promise<void> {
  await page.evaluate(([n, i]) => window.harness.render(n, i), [name, id] as const);
}

const out = (id: string, selector = ''): string => `#${id} ${selector}`.trim();

describe.skipIf(!gate.usable)(gate.title('notebook renderer in Chromium'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
    await chrome.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = await openPage('?view=full');
    await page.evaluate((names) => window.harness.preload(names), fixtureNames());
    await mkdir(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test('a successful run shows its summary, printed output, value, timeline and footer, and no failure card', async () => {
    await render('success');
    const sections = await page
      .locator(out('success', '[data-section]'))
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-section')));
    expect(sections).toEqual(['summary', 'printed-output', 'return-value', 'timeline', 'footer']);
    await expect.poll(() => page.locator(out('success', '.ptc-status')).textContent()).toBe('✓Succeeded');
    const entries = page.locator(out('success', '.ptc-log-entry'));
    expect(await entries.count()).toBe(2);
    expect(await entries.nth(1).getAttribute('class')).toContain('ptc-stderr');
    expect(await entries.nth(1).textContent()).toBe(
      'errstderr: slow page: https://github.com/microsoft/vscode-extension-samples',
    );
    expect(await page.locator(out('success', '[data-section="return-value"] .ptc-section-meta')).textContent()).toBe(
      'object(3)',
    );
    expect(await page.locator(out('success', '.ptc-bar')).count()).toBe(4);
    expect(await page.locator(out('success', '[data-section="footer"] .ptc-footer')).textContent()).toContain(
      'full via landlock, seccomp, unshare-net',
    );
  });

  test.each(FAILURE_KINDS)('a %s failure gets a card with its kind badge and plain-words explanation', async (kind) => {
    const id = `failure-${kind}`;
    await render(id);
    const card = page.locator(out(id, '.ptc-failure'));
    expect(await card.getAttribute('data-kind')).toBe(kind);
    expect(await card.locator('.ptc-failure-head .ptc-kind').textContent()).toBe(kind);
    const { timeoutMs, result } = fixturePayload(id);
    expect(await card.locator('.ptc-failure-head').textContent()).toContain(
      explainFailure(result.error!, untranslated, { timeoutMs, durationMs: result.durationMs }),
    );
    // a cancelled run is not a failure: a neutral "Cancelled", never a red ✗
    expect(await page.locator(out(id, '.ptc-status')).textContent()).toBe(
      kind === 'abort' ? '■Cancelled' : `✗${failureTitle(kind, untranslated)}`,
    );
    expect(await page.locator(out(id, '.ptc-result')).getAttribute('data-outcome')).toBe(
      kind === 'abort' ? 'cancelled' : 'failure',
    );
    expect(await page.locator(out(id, '.ptc-result')).getAttribute('data-kind')).toBe(kind);
  });

  test('an exception shows a code frame with a caret under the column and only the program stack frames', async () => {
    await render('failure-exception');
    const frame = page.locator(out('failure-exception', '.ptc-code-frame'));
    expect(await frame.locator('figcaption').textContent()).toBe('program.ts:4:16');
    expect(await frame.locator('.ptc-frame-target').getAttribute('data-line')).toBe('4');
    expect(await frame.locator('.ptc-frame-target .ptc-frame-text').textContent()).toBe(
      'return manager.name.toUpperCase();',
    );
    const caret = (await frame.locator('.ptc-frame-caret').textContent()) ?? '';
    expect(caret.slice(caret.indexOf('│ ') + 2)).toBe(`${' '.repeat(15)}^`);
    expect(await page.locator(out('failure-exception', '.ptc-stack li')).allTextContents()).toEqual([
      'at program.ts:4:16',
    ]);
    expect(await page.locator(out('failure-exception', '.ptc-stack-wrap')).textContent()).toContain(
      '2 runtime frames hidden',
    );
    expect(await page.locator(out('failure-exception', '.ptc-failure-message')).textContent()).toBe(
      "TypeError: Cannot read properties of null (reading 'name')",
    );
  });

  test('a timeout names the deadline, output-limit says where output was cut, a missing sandbox lists what it left open', async () => {
    await render('failure-timeout');
    expect(await page.locator(out('failure-timeout', '.ptc-failure-head')).textContent()).toContain(
      'ran past its 1500 ms deadline',
    );
    await render('failure-output-limit');
    expect(await page.locator(out('failure-output-limit', '.ptc-truncated')).textContent()).toBe(
      '⚠ Output truncated at 4096 bytes: later output was not captured.',
    );
    expect(
      await page
        .locator(out('failure-output-limit', '[data-section="printed-output"] .ptc-section-meta'))
        .textContent(),
    ).toContain('output truncated at 4096 bytes');
    await render('failure-sandbox-unavailable');
    expect(await page.locator(out('failure-sandbox-unavailable', '.ptc-sandbox-missing')).textContent()).toBe(
      ' — not enforced: network is reachable; filesystem is writable; child processes can be started',
    );
    expect(await page.locator(out('failure-sandbox-unavailable', '.ptc-enforcement')).textContent()).toBe('none');
    // the runtime's reasons, each with its fix, as `ptc run --json` has them
    expect(await page.locator(out('failure-sandbox-unavailable', '.ptc-sandbox-reasons li')).allTextContents()).toEqual(
      [
        'OS sandbox: bubblewrap (bwrap) not found: install the "bubblewrap" package (Debian/Ubuntu/Fedora/Arch: bubblewrap)',
        'network (no usable unshare/namespaces)',
      ],
    );
  });

  test('a binding failure names the failing call, and "Show in timeline" selects it', async () => {
    await render('binding-failure');
    const note = page.locator(out('binding-failure', '.ptc-failing-call'));
    expect(await note.getAttribute('data-call-id')).toBe('2');
    expect(await note.textContent()).toContain('#2 tools.forecast failed after 41 ms: rate limited: try again in 30 s');
    await note.getByRole('button', { name: 'Show in timeline' }).click();
    expect(await page.locator(out('binding-failure', '.ptc-bar[data-call-id="2"]')).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(await page.locator(out('binding-failure', '.ptc-call-details .ptc-call-message')).textContent()).toBe(
      'rate limited: try again in 30 s',
    );
    const active = await page.evaluate(() =>
      document.querySelector('#binding-failure')?.shadowRoot?.activeElement?.getAttribute('data-call-id'),
    );
    expect(active).toBe('2');
  });

  test('a Python traceback shows the program frame and a frame without a caret', async () => {
    await render('python-exception');
    expect(await page.locator(out('python-exception', '.ptc-code-frame figcaption')).textContent()).toBe(
      'program.py:3',
    );
    expect(await page.locator(out('python-exception', '.ptc-frame-caret')).count()).toBe(0);
    expect(await page.locator(out('python-exception', '.ptc-failure-message')).textContent()).toBe(
      'ZeroDivisionError: division by zero',
    );
    expect(await page.locator(out('python-exception', '.ptc-stack-wrap')).textContent()).toContain(
      '1 runtime frame hidden',
    );
  });

  test('300 calls lay out in parallel lanes with failed, replayed and diverged bars marked', async () => {
    await render('timeline-300');
    const bars = page.locator(out('timeline-300', '.ptc-bar'));
    expect(await bars.count()).toBe(300);
    const lanes = await bars.evaluateAll((els) => new Set(els.map((e) => e.getAttribute('data-lane'))).size);
    expect(lanes).toBe(10);
    const calls = fixturePayload('timeline-300').result.calls;
    expect(await page.locator(out('timeline-300', '.ptc-bar.ptc-bar-failed')).count()).toBe(
      calls.filter((c) => !c.ok).length,
    );
    expect(await page.locator(out('timeline-300', '.ptc-bar.ptc-bar-replayed')).count()).toBe(
      calls.filter((c) => c.replayed === true).length,
    );
    expect(
      await page
        .locator(out('timeline-300', '.ptc-bar.ptc-bar-diverged'))
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-call-id'))),
    ).toEqual(['142', '143']);
    expect(await page.locator(out('timeline-300', '.ptc-bar.ptc-bar-schema')).count()).toBe(1);
    expect(await page.locator(out('timeline-300', '.ptc-replay-summary')).textContent()).toBe(
      'replay: 298 matched · 2 diverged · 2 unused',
    );
  });

  test('clicking a bar shows its arguments and value as JSON trees; arrow keys walk the calls', async () => {
    const bar = page.locator(out('timeline-300', '.ptc-bar[data-call-id="17"]'));
    await bar.click();
    const details = page.locator(out('timeline-300', '.ptc-call-details .ptc-call'));
    expect(await details.getAttribute('data-call-id')).toBe('17');
    expect(await details.locator('.ptc-call-args .ptc-key').allTextContents()).toEqual(['round', 'k', 'q']);
    expect(await details.locator('.ptc-call-value [role="tree"]').count()).toBe(1);
    await page.keyboard.press('ArrowRight');
    expect(await details.getAttribute('data-call-id')).toBe('18');
    await page.keyboard.press('End');
    expect(await page.locator(out('timeline-300', '.ptc-call-details .ptc-call')).getAttribute('data-call-id')).toBe(
      '300',
    );
    const failed = fixturePayload('timeline-300').result.calls.find((c) => !c.ok)!;
    await page.locator(out('timeline-300', `.ptc-bar[data-call-id="${failed.id}"]`)).click();
    expect(await page.locator(out('timeline-300', '.ptc-call-error .ptc-call-message')).textContent()).toBe(
      failed.message,
    );
  });

  test('zooming widens the time axis, and bars wide enough for their label show it', async () => {
    const track = page.locator(out('timeline-300', '.ptc-track'));
    const narrow = page.locator(out('timeline-300', '.ptc-bar:empty'));
    const before = (await track.boundingBox())!.width;
    const narrowBefore = await narrow.count();
    expect(narrowBefore).toBeGreaterThan(0);
    await page.locator(out('timeline-300', 'button[aria-label="Zoom in"]')).click();
    await page.locator(out('timeline-300', 'button[aria-label="Zoom in"]')).click();
    expect((await track.boundingBox())!.width).toBeCloseTo(before * 4, 0);
    await expect.poll(() => narrow.count()).toBeLessThan(narrowBefore);
    // a label shows exactly on the bars at least 44 px wide
    const mismatched = await page
      .locator(out('timeline-300', '.ptc-bar'))
      .evaluateAll(
        (bars) => bars.filter((b) => (b.textContent === '') !== b.getBoundingClientRect().width < 44).length,
      );
    expect(mismatched).toBe(0);
    await page.locator(out('timeline-300', 'button[aria-label="Fit to width"]')).click();
    expect((await track.boundingBox())!.width).toBeCloseTo(before, 0);
  });

  test('a 5 000-deep value renders only what is expanded, expands by keyboard, and copies as JSON', async () => {
    await render('deep-5000');
    const items = page.locator(out('deep-5000', '[role="treeitem"]'));
    expect(await items.count()).toBe(3);
    await items.first().focus();
    for (let i = 0; i < 8; i += 1) await page.keyboard.press(i % 2 === 0 ? 'End' : 'ArrowRight');
    // the same keys dispatched in the page, to go deep without a round trip per key press
    await page.evaluate(() => {
      const shadow = document.querySelector('#deep-5000')!.shadowRoot!;
      for (let i = 0; i < 52; i += 1) {
        const key = i % 2 === 0 ? 'End' : 'ArrowRight';
        shadow.activeElement!.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
      }
    });
    const deepest = await items.evaluateAll((els) => Math.max(...els.map((e) => Number(e.getAttribute('aria-level')))));
    expect(deepest).toBeGreaterThanOrEqual(30);
    expect(await items.count()).toBeLessThan(100);
    await page.locator(out('deep-5000', '[data-section="return-value"] .ptc-copy')).click();
    const depth = await page.evaluate(async () => {
      let v: unknown = JSON.parse(await navigator.clipboard.readText());
      let d = 0;
      while (v !== null && typeof v === 'object') {
        v = Array.isArray(v) ? v[0] : (v as { next: unknown }).next;
        d += 1;
      }
      return d;
    });
    expect(depth).toBe(5000);
  });

  test('a 200 000-deep value renders collapsed and copies as JSON of the same depth', async () => {
    await render('deep-200000');
    expect(
      await page.locator(out('deep-200000', '[data-section="return-value"] .ptc-section-meta')).textContent(),
    ).toBe('array(1)');
    expect(await page.locator(out('deep-200000', '[role="treeitem"]')).count()).toBeLessThan(10);
    await page.locator(out('deep-200000', '[data-section="return-value"] .ptc-copy')).click();
    const depth = await page.evaluate(async () => {
      let v: unknown = JSON.parse(await navigator.clipboard.readText());
      let d = 0;
      while (Array.isArray(v)) {
        v = v[0];
        d += 1;
      }
      return d;
    });
    expect(depth).toBe(200_000);
  });

  test('a run of 5 000 calls draws the calls it keeps and counts every call per binding', async () => {
    await render('calls-summarized');
    expect(await page.locator(out('calls-summarized', '.ptc-summary-facts')).textContent()).toContain(
      '5\u202f000 calls',
    );
    expect(
      await page.locator(out('calls-summarized', '[data-section="timeline"] .ptc-section-meta')).textContent(),
    ).toMatch(/^5\u202f000 calls · 500 failed/);
    expect(await page.locator(out('calls-summarized', '.ptc-call-summary .ptc-note')).textContent()).toBe(
      'Showing the first 1\u202f000 and the last 20 of 5\u202f000 calls; the 3\u202f980 in between are counted per binding:',
    );
    expect(await page.locator(out('calls-summarized', '.ptc-call-counts li')).allTextContents()).toEqual([
      'tools.echo: 4\u202f500 calls · 4\u202f500 ok · 0 failed',
      'tools.fail: 500 calls · 0 ok · 500 failed',
    ]);
    // bars for the first 1 000 and the last 20; the last one is selectable like any other
    expect(await page.locator(out('calls-summarized', '.ptc-bar')).count()).toBe(1_020);
    await page.locator(out('calls-summarized', '.ptc-bar[data-call-id="5000"]')).click();
    expect(await page.locator(out('calls-summarized', '.ptc-call-details')).textContent()).toContain('no');
  });

  test('a 50 000-element array pages its children in ranges and never renders them all', async () => {
    await render('array-50000');
    expect(
      await page.locator(out('array-50000', '[data-section="return-value"] .ptc-section-meta')).textContent(),
    ).toBe('array(50\u202f000)');
    const ranges = page.locator(out('array-50000', '.ptc-range'));
    expect(await ranges.allTextContents()).toEqual([
      '[0 … 9\u202f999]',
      '[10\u202f000 … 19\u202f999]',
      '[20\u202f000 … 29\u202f999]',
      '[30\u202f000 … 39\u202f999]',
      '[40\u202f000 … 49\u202f999]',
    ]);
    await ranges.nth(1).click();
    await page
      .locator(out('array-50000', '.ptc-range'))
      .filter({ hasText: /^\[10\u202f100 … / })
      .click();
    const keys = await page.locator(out('array-50000', '.ptc-key')).allTextContents();
    expect(keys).toContain('10100');
    expect(keys).toContain('10199');
    expect(await page.locator(out('array-50000', '[role="treeitem"]')).count()).toBeLessThan(300);
  });

  test('1 MB of logs streams in chunks until every entry is there, stderr marked', async () => {
    await render('logs-1mb');
    const logs = fixturePayload('logs-1mb').result;
    const list = page.locator(out('logs-1mb', '.ptc-logs'));
    const first = await page.locator(out('logs-1mb', '.ptc-log-entry')).count();
    expect(first).toBeLessThan(logs.logs.length);
    await expect.poll(() => list.getAttribute('data-complete'), { timeout: 60_000 }).toBe('true');
    expect(await page.locator(out('logs-1mb', '.ptc-log-entry')).count()).toBe(logs.logs.length);
    expect(await page.locator(out('logs-1mb', '.ptc-stderr')).count()).toBe(logs.stderrLogs!.length);
    expect(await page.locator(out('logs-1mb', '.ptc-log-entry')).last().textContent()).toContain(
      logs.logs[logs.logs.length - 1]!,
    );
  });

  test('hostile strings stay text: no elements or scripts from program data, markers for controls, RTL isolated', async () => {
    await page.evaluate(() => {
      (window as unknown as { __htmlWrites: string[] }).__htmlWrites.length = 0;
    });
    await render('hostile');
    const root = await page.evaluate(() => {
      const shadow = document.querySelector('#hostile')!.shadowRoot!;
      return {
        foreign: shadow.querySelectorAll('script, img, b, iframe, object').length,
        pwned: (window as unknown as { __pwned?: number }).__pwned,
        writes: (window as unknown as { __htmlWrites: string[] }).__htmlWrites,
      };
    });
    expect(root).toEqual({ foreign: 0, pwned: undefined, writes: [] });
    const entries = page.locator(out('hostile', '.ptc-log-entry .ptc-log-text'));
    expect(await entries.nth(0).textContent()).toBe(HOSTILE.script);
    expect(await entries.nth(1).textContent()).toBe(HOSTILE.closeDiv);
    expect(await entries.nth(2).textContent()).toBe(HOSTILE.rtl);
    expect(await page.locator(out('hostile', '.ptc-log-entry')).nth(2).getAttribute('dir')).toBe('auto');
    expect(await entries.nth(3).textContent()).toBe('userU+202Egnp.exe');
    expect(await entries.nth(3).locator('.ptc-ctrl').getAttribute('title')).toBe('control character U+202E');
    expect(await entries.nth(4).textContent()).toBe(HOSTILE.emoji);
    expect(await entries.nth(5).textContent()).toBe('before␀after');
    expect(await entries.nth(6).textContent()).toBe('␛[31mred␛[0m');
    expect(await page.locator(out('hostile', '.ptc-frame-target .ptc-frame-text')).textContent()).toBe(
      `throw new Error("${HOSTILE.closeDiv.replace(/"/g, '\\"')}");`,
    );
    // bar labels are set by a ResizeObserver before the first paint, so wait for that frame
    await expect
      .poll(() => page.locator(out('hostile', '.ptc-bar')).textContent())
      .toBe(`tools[${JSON.stringify(HOSTILE.closeDiv)}]`);
    expect(await page.locator(out('hostile', '.ptc-tree .ptc-key')).first().textContent()).toBe(
      JSON.stringify(HOSTILE.script),
    );
  });

  test('every control is reachable with Tab, and sections collapse and expand from the keyboard', async () => {
    await page.evaluate(() => window.harness.clear());
    await render('success');
    await page.locator('body').click({ position: { x: 2, y: 2 } });
    const seen: string[] = [];
    for (let i = 0; i < 24; i += 1) {
      await page.keyboard.press('Tab');
      seen.push(
        await page.evaluate(() => {
          const a = document.querySelector('#success')?.shadowRoot?.activeElement;
          if (a === null || a === undefined) return 'outside';
          return (
            (a.getAttribute('data-toggle') === null ? null : 'compact-toggle') ??
            a.getAttribute('data-action') ??
            a.getAttribute('role') ??
            (a.closest('[data-section]')?.getAttribute('data-section') ?? '') + ':' + a.className.split(' ')[0]
          );
        }),
      );
    }
    // Replay stays disabled (out of the Tab order) until the host says the cell has a cassette
    for (const expected of [
      'compact-toggle',
      'open-inspector',
      'rerun',
      'record',
      'printed-output:ptc-section-toggle',
      'printed-output:ptc-button',
      'list',
      'return-value:ptc-section-toggle',
      'treeitem',
      'timeline:ptc-section-toggle',
      'timeline:ptc-bar',
      'footer:ptc-section-toggle',
    ]) {
      expect(seen).toContain(expected);
    }
    const toggle = page.locator(out('success', '[data-section="printed-output"] .ptc-section-toggle'));
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator(out('success', '[data-section="printed-output"] .ptc-section-body')).isHidden()).toBe(
      true,
    );
    await page.keyboard.press(' ');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator(out('success', '.ptc-log-entry')).count()).toBe(2);
  });

  test('the value tree expands with arrows and copies the focused node with Ctrl+C', async () => {
    const tree = page.locator(out('success', '[data-section="return-value"] [role="tree"]'));
    const root = tree.locator('[role="treeitem"]').first();
    await root.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    const top = tree.locator('[aria-level="2"]').first();
    expect(await top.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Control+c');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('"Notebook API"');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await top.getAttribute('aria-expanded')).toBe('false');
    await page.locator(out('success', '[data-section="return-value"] .ptc-copy')).click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(JSON.parse(copied)).toEqual(fixturePayload('success').result.value);
  });

  test('host actions post validated messages, show the host answer, and follow cell state', async () => {
    await page.evaluate(() => window.harness.posted.splice(0));
    await page.locator(out('success', '[data-action="open-inspector"]')).click();
    const [message] = await page.evaluate(() => window.harness.posted);
    expect(message).toMatchObject({ type: 'open-inspector', outputId: 'success', cellId: 'cell-1' });
    const requestId = (message as { requestId: string }).requestId;
    expect(await page.locator(out('success', '[data-action="open-inspector"]')).isDisabled()).toBe(true);
    await page.evaluate(
      (id) => window.harness.send({ type: 'ack', requestId: id, ok: false, message: 'the cell was deleted' }),
      requestId,
    );
    expect(await page.locator(out('success', '.ptc-action-status')).textContent()).toBe('the cell was deleted');
    expect(await page.locator(out('success', '[data-action="open-inspector"]')).isDisabled()).toBe(false);
    await page.evaluate(() =>
      window.harness.send({ type: 'cell-state', cellId: 'cell-1', hasCassette: false, running: false }),
    );
    expect(await page.locator(out('success', '[data-action="replay"]')).isDisabled()).toBe(true);
    await page.evaluate(() => window.harness.send({ type: 'ack', requestId: 42 }));
    await page.locator(out('success', '[data-action="record"]')).click();
    expect((await page.evaluate(() => window.harness.posted))[1]).toMatchObject({ type: 'record', cellId: 'cell-1' });
  });

  test('without messaging or in an untrusted workspace there are no host buttons', async () => {
    for (const query of ['?messaging=0', '?trusted=0']) {
      const other = await openPage(query);
      await other.evaluate(() => window.harness.render('success'));
      expect(await other.locator('#success .ptc-summary').count()).toBe(1);
      expect(await other.locator('#success [data-action]').count()).toBe(0);
      await other.close();
    }
  });

  test('re-rendering reuses the one shadow root; dispose empties it and releases the output', async () => {
    await render('success');
    await render('failure-abort', 'success');
    expect(await page.locator(out('success', '.ptc-result')).count()).toBe(1);
    expect(await page.locator(out('success', '.ptc-result')).getAttribute('data-kind')).toBe('abort');
    const before = await page.evaluate(() => window.harness.active());
    await page.evaluate(() => window.harness.dispose('success'));
    expect(await page.evaluate(() => document.querySelector('#success')!.shadowRoot!.childNodes.length)).toBe(0);
    expect(await page.evaluate(() => window.harness.active())).toBe(before - 1);
    await page.evaluate(() => window.harness.dispose(undefined));
    expect(await page.evaluate(() => window.harness.active())).toBe(0);
  });

  test('disposeOutputItem releases every listener: detached controls no longer post, select or toggle', async () => {
    await render('binding-failure', 'disposable');
    type Kept = Record<'rerun' | 'replay' | 'bar1' | 'bar2' | 'details' | 'toggle', HTMLElement>;
    const probe = () =>
      page.evaluate(() => {
        const kept = (window as unknown as { __kept: Kept }).__kept;
        return {
          posted: window.harness.posted.length,
          detailsCall: kept.details.querySelector('.ptc-call')?.getAttribute('data-call-id') ?? null,
          expanded: kept.toggle.getAttribute('aria-expanded'),
          replayDisabled: (kept.replay as HTMLButtonElement).disabled,
        };
      });
    await page.evaluate(() => {
      const shadow = document.querySelector('#disposable')!.shadowRoot!;
      const q = (s: string) => shadow.querySelector(s) as HTMLElement;
      (window as unknown as { __kept: Kept }).__kept = {
        rerun: q('[data-action="rerun"]'),
        replay: q('[data-action="replay"]'),
        bar1: q('.ptc-bar[data-call-id="1"]'),
        bar2: q('.ptc-bar[data-call-id="2"]'),
        details: q('.ptc-call-details'),
        toggle: q('[data-section="printed-output"] .ptc-section-toggle'),
      };
      (window as unknown as { __kept: Kept }).__kept.bar1.click();
    });
    // the listeners are live before disposal (so the checks below can fail)
    await page.evaluate(() =>
      window.harness.send({ type: 'cell-state', cellId: 'cell-1', hasCassette: true, running: false }),
    );
    const before = await probe();
    expect(before).toMatchObject({ detailsCall: '1', expanded: 'true', replayDisabled: false });
    await page.evaluate(() => window.harness.dispose('disposable'));
    await page.evaluate(() => {
      const kept = (window as unknown as { __kept: Kept }).__kept;
      kept.rerun.click();
      kept.bar2.click();
      kept.toggle.click();
      window.harness.send({ type: 'cell-state', cellId: 'cell-1', hasCassette: false, running: true });
    });
    expect(await probe()).toEqual(before);
    await page.evaluate(() => window.harness.remove('disposable'));
  });

  test('an unreadable output explains itself instead of rendering nothing', async () => {
    await page.evaluate(() => window.harness.renderText('bad-json', '{"result": '));
    expect(await page.locator('#bad-json [data-section="invalid"]').textContent()).toContain(
      'The output is not valid JSON',
    );
    await page.evaluate(() =>
      window.harness.renderText('bad-shape', JSON.stringify({ result: { logs: 'x' }, language: 'typescript' })),
    );
    const text = await page.locator('#bad-shape [data-section="invalid"] pre').first().textContent();
    expect(text).toContain('result.language: ');
    expect(text).toContain('result.logs: ');
  });

  test('themes change the colours (light, dark, high contrast) and every fixture is screenshotted in each', async () => {
    await page.evaluate(() => window.harness.clear());
    const names = fixtureNames()
      .filter((n) => n !== 'logs-1mb' && n !== 'array-50000' && n !== 'deep-5000' && n !== 'deep-200000')
      .concat(['logs-1mb']);
    for (const name of names) await render(name);
    await expect
      .poll(() => page.locator('#logs-1mb .ptc-logs').getAttribute('data-complete'), { timeout: 60_000 })
      .toBe('true');
    const colours: string[] = [];
    for (const theme of THEMES) {
      await page.evaluate((t) => window.harness.setTheme(t), theme);
      colours.push(
        await page
          .locator(out('success', '.ptc-section-title'))
          .first()
          .evaluate((e) => getComputedStyle(e).color),
      );
      for (const name of names)
        await page.locator(`#${name}`).screenshot({ path: path.join(SHOTS, `renderer-${name}-${theme}.png`) });
    }
    expect(colours).toEqual(['rgb(59, 59, 59)', 'rgb(204, 204, 204)', 'rgb(255, 255, 255)']);
    expect((await stat(path.join(SHOTS, 'renderer-timeline-300-high-contrast.png'))).size).toBeGreaterThan(10_000);
  }, 240_000);
});
