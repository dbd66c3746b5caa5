// The call debugger in the real workbench, photographed for docs/debugging.md (issue 32): a cell paused at a call
// breakpoint with its status bar choices, an approval prompt, and the inspector's diff of a run and its fork with the
// first divergence outlined; light and dark each. Driven as a person does it: palette, quick picks, status bar,
// notification buttons, on test/vscode/fixtures/debug.ptcnb (mock handlers, so nothing waits on a network).
import { copyFile, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { info } from './log.mjs';
import { REPO_ROOT, SCREENSHOT_DOCS_DIR } from './paths.mjs';
import * as wb from './workbench.mjs';

const NOTEBOOK = 'debug.ptcnb';
// wide, and the side bar closed, so the paused cell's status bar fits every choice
const WIDE = { width: 1600, height: 900 };
// palette labels ("Category: Title" from package.json / package.nls.json): a renamed command fails this pass loudly
const BREAK_ON_CALLS = 'PTC Playground: Break on Calls…';
const RUN_FROM_CALL = 'PTC Playground: Run from Call…';
// Break on Calls…'s two picks (titles from extension/debug/debug-commands.ts)
const WHERE_THIS_CELL = { title: 'Break on Calls: where', choice: 'This Cell' };
const WHICH = 'Break on Calls: which';
// the fixture's cells, found by their source (the list virtualises rows, so an index among rendered rows would lie)
const CELLS = {
  answer: /tools\.search\(\{\s*q:\s*'cats'/,
  answerPy: /tools\.search\(\{'q':\s*'cats'/,
  approve: /mail\.send\(\{\s*to:/,
  fork: /q:\s*'three'/,
};
const KINDS = ['light', 'dark'];

const quickInput = (page) => page.locator('.quick-input-widget');
const cellRow = (page, source) =>
  page.locator('.notebook-editor .code-cell-row').filter({ visible: true }).filter({ hasText: source }).first();
const statusItem = (row, text) => row.locator('.cell-statusbar-container .cell-status-item', { hasText: text }).first();

// Clicks into a cell's editor (it becomes the active cell the palette's commands act on), first scrolling the notebook
// until the whole cell, status bar included, is inside the editor (a picture of it must not cut it off).
async function focusCell(page, source) {
  await wb.runCommand(page, 'Notebook: Focus First Cell').catch(() => {});
  const row = cellRow(page, source);
  await wb.waitFor(
    `the cell matching ${source} wholly in view`,
    async () => {
      const box = (await row.isVisible().catch(() => false)) ? await row.boundingBox() : null;
      // the shown editor: one a closed tab left in the DOM has no box
      const view = await page.locator('.notebook-editor').filter({ visible: true }).first().boundingBox();
      // a row taller than the editor is in view once its top is
      if (box && view && box.y >= view.y && (box.y + box.height <= view.y + view.height || box.height > view.height))
        return true;
      // the mouse over the notebook's middle (a hidden editor a closed tab left in the DOM can come first)
      await page.mouse.move(WIDE.width / 2, WIDE.height / 2);
      await page.mouse.wheel(0, box && view && box.y < view.y ? -200 : 200);
      return false;
    },
    { timeoutMs: 30_000, intervalMs: 300 },
  );
  await row.locator('.view-lines').first().click();
  return row;
}

// Runs a palette command, then answers the quick picks it opens, one after the other: each step waits for its pick's
// title, types the choice into the filter and presses Enter once the choice is the only row left. Not a click on the
// row: the widget re-renders its list as one pick takes the previous one's place, and a click that lands on the row
// beside the one aimed at (in CI, "Every Cell of the Notebook" for "This Cell") makes a choice nobody sees.
async function paletteThenPick(page, label, steps) {
  // not wb.runCommand: it waits for the palette to close, and here a quick pick takes its place
  if (await quickInput(page).isVisible()) await page.keyboard.press('Escape');
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${label}`);
  await quickInput(page)
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: label }) })
    .first()
    .click({ timeout: 20_000 });
  for (const { title, choice } of steps) {
    await quickInput(page)
      .locator('.quick-input-title', { hasText: title })
      .waitFor({ state: 'visible', timeout: 20_000 });
    await input.fill(choice);
    const rows = quickInput(page).locator('.quick-input-list .monaco-list-row').filter({ visible: true });
    await wb.waitFor(
      `"${choice}" as the only choice of "${title}"`,
      async () => (await rows.count()) === 1 && (await rows.first().innerText()).includes(choice),
      { timeoutMs: 10_000 },
    );
    await page.keyboard.press('Enter');
  }
}

// The cell's ▷ (Ctrl+Enter in a cell's editor inserts a line in code-server), else the palette's Execute Cell.
async function runCell(page, row) {
  await row.hover();
  const run = row.locator('.run-button-container .codicon-notebook-execute').first();
  if (await run.isVisible().catch(() => false)) await run.click();
  else await wb.runCommand(page, 'Notebook: Execute Cell');
  // a notebook's first run may ask which kernel to use
  await wb
    .waitFor('the kernel picker', () => wb.answerKernelPicker(page, 'PTC Playground'), { timeoutMs: 3000 })
    .catch(() => {});
}

// The states a cell can be in while its run has not ended (queued, running, or waiting on a person at a call).
const UNSETTLED = ['notebook-state-pending', 'notebook-state-executing', 'modifier-spin'];

// Waits until the row's run has ended: ✓ or ✗ and nothing queued, running or waiting on a call. A ✓ alone is not
// enough — a run before it leaves one, and a run still waiting on an approval holds the notebook's queue, so every
// later cell would wait behind it. On a timeout the error names what the row still shows.
async function finished(row, what) {
  const shown = async () => {
    const icons = {};
    for (const cls of ['notebook-state-success', 'notebook-state-error', ...UNSETTLED])
      icons[cls] = await row.locator(`.cell-status-left .codicon-${cls}`).count();
    const waiting = await row
      .locator('.cell-statusbar-container .cell-status-item', { hasText: /needs approval|paused at call/ })
      .count();
    // every item's text, so a timeout says what the cell waits on (a call, and why)
    const items = await row.locator('.cell-statusbar-container .cell-status-item').allInnerTexts();
    return { icons, waiting, items };
  };
  try {
    await wb.waitFor(
      what,
      async () => {
        const { icons, waiting } = await shown();
        const ended = icons['notebook-state-success'] + icons['notebook-state-error'] > 0;
        return ended && waiting === 0 && UNSETTLED.every((cls) => icons[cls] === 0);
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
  } catch (error) {
    throw new Error(`${error.message}; the cell shows ${JSON.stringify(await shown().catch(() => 'nothing'))}`, {
      cause: error,
    });
  }
}

// The theme the page is in (a picture in it comes first, saving a switch).
async function currentTheme(page) {
  const dark = await page.evaluate(() =>
    globalThis.document.querySelector('.monaco-workbench')?.classList.contains('vs-dark'),
  );
  return dark ? 'dark' : 'light';
}

// One screenshot of what `clip` frames (the whole page without it), refused when it looks blank.
async function shoot(page, file, clip) {
  await page.screenshot({ path: file, ...(clip ? { clip } : {}) });
  const { size } = await stat(file);
  if (size < (clip ? 8000 : 20_000))
    throw new Error(`${path.basename(file)} is only ${size} bytes; the page looks blank`);
  return file;
}

// One screenshot per theme of what `clip()` frames; the theme the page is in goes first, saving a switch.
async function inBothThemes(page, resultsDir, name, clip) {
  const current = await currentTheme(page);
  const files = {};
  for (const kind of [current, ...KINDS.filter((k) => k !== current)]) {
    await wb.switchTheme(page, kind);
    files[kind] = await shoot(page, path.join(resultsDir, `${name}-${kind}.png`), clip ? await clip() : undefined);
  }
  return files;
}

// The frame (notebook output or inspector webview) that holds `selector`.
async function frameWith(page, selector) {
  for (const frame of page.frames())
    if (
      (await frame
        .locator(selector)
        .count()
        .catch(() => 0)) > 0
    )
      return frame;
  return undefined;
}

// A row's area, widened downwards by `below` px (a cell's outputs and status bar sit under its editor).
async function rowClip(row, below = 0) {
  const box = await row.boundingBox();
  if (!box) throw new Error('the cell is not rendered, so it cannot be photographed');
  return { x: box.x, y: Math.max(0, box.y - 8), width: box.width, height: box.height + 16 + below };
}

export async function runDebuggerShots({ page, test, resultsDir }) {
  const shots = {};
  await test('debugger: a cell paused at a call breakpoint shows its choices in the status bar', async () => {
    await page.setViewportSize(WIDE);
    await wb.runCommand(page, 'View: Close All Editors').catch(() => {});
    await wb.runCommand(page, 'View: Close Primary Side Bar').catch(() => {});
    await wb.openNotebook(page, NOTEBOOK);
    await focusCell(page, CELLS.answer);
    await paletteThenPick(page, BREAK_ON_CALLS, [WHERE_THIS_CELL, { title: WHICH, choice: 'Every Call' }]);
    const row = cellRow(page, CELLS.answer);
    await statusItem(row, 'breaks on every call').waitFor({ state: 'visible', timeout: 20_000 });
    // this cell's breakpoint, not the notebook's: every other cell of it would pause too (the fork below would wait)
    if ((await statusItem(cellRow(page, CELLS.answerPy), 'breaks on').count()) > 0)
      throw new Error('"This Cell" set a breakpoint on the next cell too: the notebook was chosen');
    await runCell(page, await focusCell(page, CELLS.answer));
    await statusItem(row, 'paused at call 1').waitFor({ state: 'visible', timeout: 120_000 });
    for (const choice of ['Continue', 'Answer…', 'Throw…', 'Step'])
      await statusItem(row, choice).waitFor({ state: 'visible', timeout: 5000 });
    await page.mouse.move(0, 0);
    shots['debug-paused'] = await inBothThemes(page, resultsDir, 'debug-paused', () => rowClip(row));
    await statusItem(row, 'Continue').click();
    await finished(row, 'the paused cell to finish after Continue');
    await paletteThenPick(page, BREAK_ON_CALLS, [WHERE_THIS_CELL, { title: WHICH, choice: 'Clear Breakpoints' }]);
    // every later run of this notebook depends on it: no cell of it breaks any more
    await wb.waitFor('no breakpoint shown on the first two cells', async () => {
      for (const source of [CELLS.answer, CELLS.answerPy])
        if ((await statusItem(cellRow(page, source), 'breaks on').count()) > 0) return false;
      return true;
    });
  });

  await test('debugger: a call that needs approval asks in the cell and in a notification', async () => {
    // once per theme, each picture taken while its call waits: a warning's toast hides by itself after a while, and
    // in code-server's headless page it may not show at all (the first pass never saw one), so the picture is taken
    // with the notification list open, where the notification and its buttons stay until one is pressed
    const files = {};
    const current = await currentTheme(page);
    const center = page.locator('.notifications-center');
    for (const kind of [current, ...KINDS.filter((k) => k !== current)]) {
      await wb.switchTheme(page, kind);
      await wb.runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
      const row = await focusCell(page, CELLS.approve);
      await runCell(page, row);
      await statusItem(row, 'needs approval').waitFor({ state: 'visible', timeout: 120_000 });
      for (const choice of ['Approve', 'Edit Arguments…', 'Deny'])
        await statusItem(row, choice).waitFor({ state: 'visible', timeout: 5000 });
      const toast = await page
        .locator('.notification-toast', { hasText: 'needs approval' })
        .first()
        .waitFor({ state: 'visible', timeout: 5000 })
        .then(
          () => true,
          () => false,
        );
      info('ui', `approval (${kind}): ${toast ? 'a toast showed' : 'no toast showed'}; opening the notification list`);
      await wb.runCommand(page, 'Notifications: Show Notifications');
      const item = center.locator('.notification-list-item', { hasText: 'needs approval' }).first();
      await item.waitFor({ state: 'visible', timeout: 20_000 });
      await page.mouse.move(0, 0);
      files[kind] = await shoot(page, path.join(resultsDir, `debug-approval-${kind}.png`));
      // the notification's own button (the list shows a notification with buttons expanded), else the cell's
      const deny = item.locator('.monaco-button', { hasText: 'Deny' }).first();
      const waits = statusItem(row, 'needs approval');
      if (await deny.isVisible().catch(() => false)) {
        await deny.click();
        // a click the list swallowed while it re-rendered leaves the call waiting, and its run would hold the
        // notebook's queue for every later cell: the cell's own Deny then (the same decision, said in the log)
        const reached = await waits.waitFor({ state: 'hidden', timeout: 10_000 }).then(
          () => true,
          () => false,
        );
        if (!reached) {
          info('ui', `approval (${kind}): the notification's Deny did not reach the call; denying from the cell`);
          if (await center.isVisible().catch(() => false)) await page.keyboard.press('Escape');
          // gone meanwhile: the notification's decision arrived late, and finished() below says whether it did
          await statusItem(row, 'Deny')
            .click({ timeout: 5000 })
            .catch(() => {});
        }
      } else await statusItem(row, 'Deny').click();
      await finished(row, 'the denied cell to finish');
      if (await center.isVisible().catch(() => false)) await page.keyboard.press('Escape');
      await wb.waitFor(
        "the program's catch to print the denial",
        async () => (await wb.renderedOutputText(page)).includes('was denied by the user'),
        { timeoutMs: 30_000, intervalMs: 500 },
      );
    }
    shots['debug-approval'] = files;
  });

  await test("debugger: Run from Call… opens the inspector's diff of the run and its fork, first divergence outlined", async () => {
    const row = await focusCell(page, CELLS.fork);
    await runCell(page, row);
    // its first run: any state at all says the click reached VS Code (one that did not is retried from the palette)
    const started = await wb
      .waitFor(
        'the cell to be queued or run',
        async () =>
          (
            await Promise.all(
              ['notebook-state-success', 'notebook-state-error', ...UNSETTLED].map((cls) =>
                row.locator(`.cell-status-left .codicon-${cls}`).count(),
              ),
            )
          ).some((n) => n > 0),
        {
          timeoutMs: 10_000,
        },
      )
      .then(
        () => true,
        () => false,
      );
    if (!started) {
      info('ui', 'the fork cell shows no state 10 s after its ▷; running it from the palette');
      await wb.runCommand(page, 'Notebook: Execute Cell');
    }
    await finished(row, 'the cell to finish its first run');
    await focusCell(page, CELLS.fork);
    await paletteThenPick(page, RUN_FROM_CALL, [
      { title: 'which call gets another answer', choice: '2. tools.search' },
      { title: 'its new outcome', choice: 'Edit Its Result…' },
    ]);
    // the input box takes the quick pick's place in the same widget: typed too early, the text would go to the pick's
    // filter and the box would then open on its prefilled value (the call's recorded result)
    await quickInput(page)
      .locator('.quick-input-title', { hasText: 'The result the call answers with' })
      .waitFor({ state: 'visible', timeout: 20_000 });
    const input = quickInput(page).locator('input');
    await wb.waitFor('the prefilled recorded result', async () => (await input.inputValue()) === '{"hits":5}', {
      timeoutMs: 10_000,
    });
    await input.fill('{"hits":40}');
    await wb.waitFor('the edited result in the input box', async () => (await input.inputValue()) === '{"hits":40}');
    await page.keyboard.press('Enter');
    const diff = await wb.waitFor(
      'the inspector diff with a first divergence',
      () => frameWith(page, '.ptc-diff .ptc-first-divergence'),
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const summary = await diff.locator('.ptc-diff-summary').first().innerText();
    if (!/call #2 tools\.search/.test(summary))
      throw new Error(`the diff's first divergence is not call 2: ${summary}`);
    await wb.runCommand(page, 'Notifications: Clear All Notifications').catch(() => {});
    await page.mouse.move(0, 0);
    shots['debug-fork-diff'] = await inBothThemes(page, resultsDir, 'debug-fork-diff');
  });

  // copied only when every debugger screen was taken in both themes: the docs never pair a new picture with a stale one
  if (process.env.PTC_E2E_UPDATE_SCREENSHOTS === '1' && Object.keys(shots).length === 3) {
    await mkdir(SCREENSHOT_DOCS_DIR, { recursive: true });
    for (const [name, files] of Object.entries(shots))
      for (const [kind, file] of Object.entries(files))
        await copyFile(file, path.join(SCREENSHOT_DOCS_DIR, `vscode-${name}-${kind}.png`));
    info('ui', `copied the debugger screenshots into ${path.relative(REPO_ROOT, SCREENSHOT_DOCS_DIR)}`);
  }
}
