// The renderer's problem output (a cell that could not run): its buttons and file links message the extension host,
// because VS Code's output webview runs only a few built-in commands from a `command:` link.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROBLEM_MIME, type ProblemPayload } from '../../../webview/protocol/index.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';

const gate = chromiumGate();
let chrome: LaunchedChromium;
let server: PageServer;

const BINDINGS = '/work/nb/broken.bindings.mjs';
const MESSAGE = `The cell could not run (bindings): bindings module ${BINDINGS} failed to load: broken.bindings.mjs:4:4: Expected "}"`;
const BROKEN: ProblemPayload = {
  message: MESSAGE,
  links: [
    {
      start: MESSAGE.indexOf(BINDINGS),
      end: MESSAGE.indexOf(BINDINGS) + BINDINGS.length,
      location: { path: BINDINGS },
    },
    {
      start: MESSAGE.indexOf('broken.bindings.mjs:4:4'),
      end: MESSAGE.indexOf('broken.bindings.mjs:4:4') + 'broken.bindings.mjs:4:4'.length,
      location: { path: BINDINGS, line: 4, column: 4 },
    },
  ],
  actions: ['set-notebook-bindings', 'show-log'],
};
const NO_MODEL: ProblemPayload = {
  message: 'No model is available: pick one.',
  actions: ['pick-model', 'set-model-key', 'model-settings', 'fake-model'],
  detail: 'The offline fake model is scripted.',
};

async function openPage(query = ''): Promise<Page> {
  const p = await chrome.context.newPage();
  await p.goto(`${server.origin}/page/renderer.html${query}`);
  await p.waitForSelector('body[data-ready="true"]');
  return p;
}

const renderProblem = (page: Page, id: string, payload: unknown): Promise<string> =>
  page.evaluate(([i, mime, text]) => window.harness.renderItem(i, mime, text), [
    id,
    PROBLEM_MIME,
    JSON.stringify(payload),
  ] as const);
const posted = (page: Page): Promise<unknown[]> => page.evaluate(() => window.harness.posted.splice(0));

describe.skipIf(!gate.usable)(gate.title('the problem output in Chromium'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  test('a bindings error: the message whole, its files as links, Set Notebook Bindings… first and primary', async () => {
    const page = await openPage();
    await renderProblem(page, 'broken', BROKEN);
    expect(await page.locator('#broken .ptc-problem-message').textContent()).toBe(MESSAGE);
    expect(await page.locator('#broken .ptc-problem').getAttribute('data-severity')).toBe('error');
    const links = page.locator('#broken [data-open-file]');
    expect(await links.allTextContents()).toEqual([BINDINGS, 'broken.bindings.mjs:4:4']);
    const buttons = page.locator('#broken [data-problem-action]');
    expect(await buttons.allTextContents()).toEqual(['Set Notebook Bindings…', 'Show Log']);
    expect(await buttons.first().getAttribute('class')).toContain('ptc-primary');
    await page.close();
  });

  test('a button posts its action and waits for the host; the host answer is shown and the button comes back', async () => {
    const page = await openPage();
    await renderProblem(page, 'broken', BROKEN);
    await posted(page);
    const button = page.locator('#broken [data-problem-action="set-notebook-bindings"]');
    await button.click();
    const [message] = await posted(page);
    expect(message).toMatchObject({ type: 'problem-action', action: 'set-notebook-bindings' });
    expect(await button.isDisabled()).toBe(true);
    const requestId = (message as { requestId: string }).requestId;
    await page.evaluate(
      (id) =>
        window.harness.send({ type: 'ack', requestId: id, ok: false, message: 'Open a PTC notebook stored on disk' }),
      requestId,
    );
    expect(await page.locator('#broken .ptc-action-status').textContent()).toBe('Open a PTC notebook stored on disk');
    expect(await button.isDisabled()).toBe(false);
    // a file link asks the host to open the file at the line
    await page.locator('#broken [data-open-file]').nth(1).click();
    const [open] = await posted(page);
    expect(open).toMatchObject({ type: 'open-file', location: { path: BINDINGS, line: 4, column: 4 } });
    await page.close();
  });

  test("a task cell without a model: four actions in the host's order, the note below, every one posts", async () => {
    const page = await openPage();
    await renderProblem(page, 'task', NO_MODEL);
    const buttons = page.locator('#task [data-problem-action]');
    expect(await buttons.allTextContents()).toEqual([
      'Pick Model',
      'Set Model API Key',
      'Model Settings',
      'Try the Offline Fake Model',
    ]);
    expect(await page.locator('#task .ptc-problem-detail').textContent()).toBe('The offline fake model is scripted.');
    await posted(page);
    for (let i = 0; i < 4; i++) await buttons.nth(i).click();
    expect((await posted(page)).map((m) => (m as { action: string }).action)).toEqual(NO_MODEL.actions);
    await page.close();
  });

  test('in Restricted Mode the buttons stay (Manage Workspace Trust is how one leaves it); without messaging they go', async () => {
    const untrusted = await openPage('?trusted=0');
    await renderProblem(untrusted, 'trust', { message: 'This cell did not run.', actions: ['manage-trust'] });
    expect(await untrusted.locator('#trust [data-problem-action]').allTextContents()).toEqual([
      'Manage Workspace Trust',
    ]);
    await untrusted.close();
    const silent = await openPage('?messaging=0');
    await renderProblem(silent, 'broken', BROKEN);
    expect(await silent.locator('#broken [data-problem-action], #broken [data-open-file]').count()).toBe(0);
    expect(await silent.locator('#broken .ptc-problem-message').textContent()).toBe(MESSAGE);
    await silent.close();
  });

  test('a hostile output: markup stays text, controls are marked, an unknown action or a bad link is refused', async () => {
    const page = await openPage();
    await renderProblem(page, 'markup', { message: '<img src=x onerror=alert(1)>\u202e\u0000 done' });
    expect(await page.locator('#markup img').count()).toBe(0);
    expect(await page.locator('#markup .ptc-problem-message').textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('#markup .ptc-ctrl').count()).toBe(2);
    // a command the host does not offer is not a button: the output is refused as a whole
    await renderProblem(page, 'command', { message: 'x', actions: ['workbench.action.terminal.new'] });
    expect(await page.locator('#command [data-problem-action]').count()).toBe(0);
    expect(await page.locator('#command .ptc-invalid').count()).toBe(1);
    // spans outside the message are left as text
    await renderProblem(page, 'span', { message: 'short', links: [{ start: 2, end: 90, location: { path: '/a' } }] });
    expect(await page.locator('#span [data-open-file]').count()).toBe(0);
    expect(await page.locator('#span .ptc-problem-message').textContent()).toBe('short');
    await page.close();
  });

  test("a task cell's summary is info, not an error", async () => {
    const page = await openPage();
    await renderProblem(page, 'summary', { message: 'fake · 1 turn(s)', severity: 'info' });
    expect(await page.locator('#summary .ptc-problem').getAttribute('data-severity')).toBe('info');
    expect(await page.locator('#summary .ptc-problem-actions').count()).toBe(0);
    await page.close();
  });
});
