// UI suite, part two: screens issue 29 added, set up once and photographed in the light and the dark theme for
// docs/screenshots/ — a wrong tool call's squiggle and hover, the call-budget failure, a task cell without a model and
// its buttons, a partial sandbox's reasons in Details, a bindings error and the picker its button opens, Open Tour's
// folder picker, the walkthrough. The buttons are clicked as a person clicks them: a button that does not open its
// picker fails the pass. Then a key no photograph shows: Alt+Shift+S stops a runaway cell (keyboard.ptcnb). The
// fixtures are test/vscode/fixtures/screens.ptcnb, partial-sandbox.ptcnb, gone-bindings.ptcnb and keyboard.ptcnb
// (copied into the workspace; names Quick Open cannot confuse).
// functions passed to evaluate run in the browser
/* global document, NodeFilter, window */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { info } from './log.mjs';
import * as wb from './workbench.mjs';

// tall enough that each fixture notebook's cells and outputs show whole
const VIEW = { width: 1440, height: 1300 };
const WINDOW = { width: 1440, height: 900 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// the notebook editor in view: one in another tab keeps its DOM in the page, moved out of the viewport
const codeRows = (page) => page.locator('.notebook-editor[data-ptc-in-view] .code-cell-row');
async function markEditorInView(page) {
  await page.evaluate(() => {
    for (const editor of document.querySelectorAll('.notebook-editor')) {
      const r = editor.getBoundingClientRect();
      const inView = r.width > 0 && r.height > 0 && r.right > 0 && r.left < window.innerWidth;
      editor.toggleAttribute('data-ptc-in-view', inView);
    }
  });
}

// The first of a locator's matches (across the output frames) that lies in the viewport.
async function firstInView(page, locate) {
  const { width, height } = page.viewportSize();
  for (const frame of wb.outputFrames(page)) {
    const all = locate(frame);
    const n = await all.count().catch(() => 0);
    for (let i = 0; i < n; i++) {
      const box = await all
        .nth(i)
        .boundingBox()
        .catch(() => null);
      if (box && box.x >= 0 && box.x < width && box.y + box.height > 0 && box.y < height) return all.nth(i);
    }
  }
  return undefined;
}

// Escape closes the quick input a pose opened.
const closePicker = (page) => page.keyboard.press('Escape');

// The quick input (a quick pick, the simple file dialog) once it shows text matching `pattern`.
const quickInputWith = (page, pattern) =>
  page.locator('.quick-input-widget', { hasText: pattern }).filter({ visible: true }).first();

// Clicks a problem output's button (our renderer's, in an output frame) and waits for the quick input it opens: the
// proof that the button reaches the extension host, which a `command:` link in an output cannot (VS Code's output
// webview runs only a few built-in commands from links).
async function clickProblemAction(page, action, opens) {
  const button = await firstInView(page, (frame) => frame.locator(`[data-problem-action="${action}"]`));
  if (button === undefined) throw new Error(`no ${action} button in view`);
  await button.click();
  await quickInputWith(page, opens)
    .waitFor({ timeout: 30_000 })
    .catch(() => {
      throw new Error(`clicking the output's ${action} button opened no quick input showing ${opens}`);
    });
}

// The nth code cell with its output, once `locate` finds the output drawn inside the viewport (a clip taken before
// the output row has its height, or of a cell scrolled out of view, misses the output).
async function cellWithOutputClip(page, n, locate) {
  await codeRows(page).nth(n).scrollIntoViewIfNeeded();
  const output = await wb.waitFor(
    `the output of code cell ${n + 1} in view`,
    async () => {
      const found = await firstInView(page, locate);
      const box = await found?.boundingBox().catch(() => null);
      return box && box.height > 0 ? box : false;
    },
    { timeoutMs: 60_000, intervalMs: 500 },
  );
  await sleep(800);
  const cell = await wb.cellClip(page, n);
  return around([cell, { ...output, x: cell.x, width: cell.width }], { pad: 12, viewport: page.viewportSize() });
}

// Runs the nth code cell the way a person does, with its ▷ button (choosing our kernel if asked), and waits for its
// ✓ or ✗.
async function runCell(page, n) {
  const row = codeRows(page).nth(n);
  await row.hover();
  const button = row.locator('.run-button-container .codicon-notebook-execute').first();
  await button.waitFor({ state: 'visible', timeout: 10_000 });
  await button.click();
  await wb.waitFor(
    `code cell ${n + 1} to finish`,
    async () => {
      await wb.answerKernelPicker(page, 'PTC Playground');
      const done = await row
        .locator('.cell-status-left .codicon-notebook-state-success, .cell-status-left .codicon-notebook-state-error')
        .count();
      return done > 0;
    },
    { timeoutMs: 120_000, intervalMs: 500 },
  );
}

async function waitForOutputText(page, what, pattern) {
  await wb.waitFor(what, async () => pattern.test(await wb.renderedOutputText(page)), {
    timeoutMs: 60_000,
    intervalMs: 500,
  });
}

// Moves the mouse onto the first visible occurrence of `word` in a cell editor; true once a hover matching `pattern`
// shows (Monaco splits a line into token spans, so the word's box comes from a text range, not an element).
async function hoverOver(page, word, pattern) {
  await page.mouse.move(0, 0);
  const at = await page.evaluate((w) => {
    for (const line of document.querySelectorAll('.notebook-editor .view-line')) {
      const box = line.getBoundingClientRect();
      if (box.height === 0 || box.right <= 0 || box.left >= window.innerWidth) continue;
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const i = node.textContent.indexOf(w);
        if (i < 0) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + w.length);
        const r = range.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }
    }
    return undefined;
  }, word);
  if (at === undefined) return false;
  await page.mouse.move(at.x, at.y, { steps: 4 });
  const hover = page.locator('.monaco-hover').filter({ visible: true }).filter({ hasText: pattern }).first();
  return hover.waitFor({ timeout: 6000 }).then(
    () => true,
    () => false,
  );
}

// The union of page rectangles, padded, kept inside the viewport.
function around(rects, { pad = 8, viewport }) {
  const x = Math.max(0, Math.min(...rects.map((r) => r.x)) - pad);
  const y = Math.max(0, Math.min(...rects.map((r) => r.y)) - pad);
  const right = Math.min(viewport.width, Math.max(...rects.map((r) => r.x + r.width)) + pad);
  const bottom = Math.min(viewport.height, Math.max(...rects.map((r) => r.y + r.height)) + pad);
  return { x, y, width: right - x, height: bottom - y };
}

// The rectangle of cells first…last (0-based code cells) with their outputs.
async function cellsClip(page, first, last = first) {
  const a = await wb.cellClip(page, first);
  const b = await wb.cellClip(page, last);
  return around([a, b], { pad: 0, viewport: page.viewportSize() });
}

// Each screen: `setup` runs once (in the light theme), `pose` before each photograph (a hover, an open picker),
// `clip` says what to photograph (undefined: the whole window), `unpose` puts the window back.
const SCREENS = [
  {
    name: 'argument-shape',
    what: 'a wrong tool call: the squiggle under the field the schema refuses, and its hover',
    notebook: 'screens.ptcnb',
    async setup(page) {
      // the diagnostic comes from the extension once the bindings are described: its hover says the reason
      await wb.waitFor('the argument-shape diagnostic on hover', () => hoverOver(page, 'qurey', /not a field/), {
        timeoutMs: 120_000,
        intervalMs: 2000,
      });
      await page.mouse.move(0, 0);
    },
    async pose(page) {
      if (!(await hoverOver(page, 'qurey', /not a field/)))
        throw new Error('hovering the wrong field shows no diagnostic');
      await sleep(500);
    },
    async clip(page) {
      const cell = await wb.cellClip(page, 0);
      const hover = await page.locator('.monaco-hover').filter({ visible: true }).first().boundingBox();
      return around([{ ...cell, height: Math.min(cell.height, 160) }, hover], { viewport: page.viewportSize() });
    },
    async unpose(page) {
      await page.mouse.move(0, 0);
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'call-budget',
    what: 'a loop stopped by its call budget (metadata.limits.maxCalls 25): the failure names the number',
    notebook: 'screens.ptcnb',
    async setup(page) {
      await runCell(page, 1);
      await waitForOutputText(page, 'the call-budget failure', /more than 25 binding calls/);
    },
    clip: (page) => cellsClip(page, 1),
  },
  {
    name: 'task-no-model',
    what: 'a task cell with no model: what to do, with Pick Model, Set Model API Key, the settings and the offline fake model',
    notebook: 'screens.ptcnb',
    async setup(page) {
      await runCell(page, 2);
      await waitForOutputText(page, 'the task cell help', /No model is available/);
      // the buttons work: Pick Model opens its quick pick (which offers the offline fake model)
      await clickProblemAction(page, 'pick-model', /Offline fake model/);
      await closePicker(page);
    },
    clip: (page) =>
      cellWithOutputClip(page, 2, (frame) => frame.locator('.ptc-problem:has([data-problem-action="fake-model"])')),
  },
  {
    name: 'sandbox-partial',
    what: "Details of a run whose sandbox was partial: what is missing and how to fix it (the CLI's --json says the same)",
    notebook: 'partial-sandbox.ptcnb',
    async pose(page) {
      // the saved result opens compact; Details draws the full view with its Run section
      await wb.waitFor(
        'the sandbox reasons in the full view',
        async () => {
          if ((await firstInView(page, (frame) => frame.locator('.ptc-sandbox-reasons'))) !== undefined) return true;
          const toggle = await firstInView(page, (frame) => frame.locator('[data-toggle="details"]'));
          await toggle?.click();
          return false;
        },
        { timeoutMs: 60_000, intervalMs: 1500 },
      );
      await sleep(800);
    },
    async clip(page) {
      // the Run section, at the foot of the full view (boxes inside an output frame are in page coordinates)
      const footer = await firstInView(page, (frame) => frame.locator('.ptc-footer'));
      if (footer === undefined) throw new Error('no Run section in the full view');
      await footer.scrollIntoViewIfNeeded();
      const box = await footer.boundingBox();
      const cell = await wb.cellClip(page, 0);
      return around([{ ...box, x: cell.x, width: cell.width }], { pad: 36, viewport: page.viewportSize() });
    },
  },
  {
    name: 'bindings-error',
    what: 'a cell whose bindings module is gone: the error with Set Notebook Bindings…, and the file picker it opens',
    notebook: 'gone-bindings.ptcnb',
    async setup(page) {
      await runCell(page, 0);
      await waitForOutputText(page, 'the bindings error', /Set Notebook Bindings/);
    },
    async pose(page) {
      // the simple file dialog of a remote window, titled for the notebook, with its Use as Bindings button
      await clickProblemAction(
        page,
        'set-notebook-bindings',
        /Bindings module for gone-bindings\.ptcnb|Use as Bindings/,
      );
      await sleep(1200);
    },
    unpose: closePicker,
  },
  {
    name: 'open-tour',
    what: 'Open Tour…: the folder picker the tour is written into (Write the Tour Here)',
    async pose(page) {
      await wb.runCommand(page, 'PTC Playground: Open Tour…');
      await page
        .locator('.quick-input-widget', { hasText: /Write the Tour Here|tour/i })
        .filter({ visible: true })
        .first()
        .waitFor({ timeout: 20_000 });
      await sleep(1200);
    },
    unpose: closePicker,
  },
  {
    name: 'walkthrough',
    what: 'the walkthrough: Open Tour, a notebook, run, record and replay, the inspector, tests, import, task cells',
    async pose(page) {
      await wb.runCommand(page, 'Welcome: Open Walkthrough...');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill('PTC Playground');
      const row = page
        .locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: 'PTC Playground' })
        .first();
      await row.waitFor({ state: 'visible', timeout: 20_000 });
      // Enter picks the first match; a click can land on a list still re-rendering as the filter applies
      await page.keyboard.press('Enter');
      await page.locator('.gettingStartedContainer').filter({ visible: true }).first().waitFor({ timeout: 30_000 });
      await sleep(1500);
    },
    async unpose(page) {
      await wb.runCommand(page, 'View: Close Editor').catch(() => {});
    },
  },
];

// Registers the screens' steps with the UI suite's `test`; returns name → { light, dark } screenshot files.
export async function screenSteps({ page, test, resultsDir }) {
  const shots = {};
  let open;
  const show = async (screen) => {
    if (screen.notebook === undefined || open === screen.notebook) return;
    // not wb.openNotebook, which may Close All: the notebooks' outputs are unsaved changes, and closing asks to save
    await wb.quickOpen(page, screen.notebook);
    await page
      .locator('.tab.active', { hasText: screen.notebook })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await sleep(500);
    await markEditorInView(page);
    await codeRows(page).first().waitFor({ state: 'visible', timeout: 60_000 });
    open = screen.notebook;
  };
  // a screen that cannot be set up or photographed is reported, and the others are still taken
  const broken = new Map();
  const report = (what) => {
    if (broken.size > 0)
      throw new Error(
        `${what}: ${[...broken].map(([name, error]) => `${name}: ${error.message ?? String(error)}`).join('; ')}`,
      );
  };
  await test('the new screens are set up: squiggle and hover, call budget, task cell without a model, bindings error', async () => {
    await page.setViewportSize(VIEW);
    await wb.switchTheme(page, 'light');
    for (const screen of SCREENS) {
      if (screen.setup === undefined) continue;
      try {
        await show(screen);
        await screen.setup(page);
        info('ui', `set up: ${screen.name}`);
      } catch (error) {
        broken.set(screen.name, error);
        info('ui', `✗ set up: ${screen.name}: ${error.message}`);
        await page.screenshot({ path: path.join(resultsDir, `failure-screen-${screen.name}.png`) }).catch(() => {});
        await page.keyboard.press('Escape');
      }
    }
  });
  for (const kind of ['light', 'dark']) {
    await test(`the new screens photographed in the ${kind} theme`, async () => {
      await wb.switchTheme(page, kind);
      open = undefined;
      for (const screen of SCREENS) {
        if (broken.has(screen.name)) continue;
        try {
          await page.setViewportSize(screen.clip === undefined ? WINDOW : VIEW);
          await show(screen);
          await sleep(600);
          await screen.pose?.(page);
          const file = path.join(resultsDir, `screen-${screen.name}-${kind}.png`);
          const clip = screen.clip === undefined ? undefined : await screen.clip(page);
          await page.screenshot({ path: file, ...(clip === undefined ? {} : { clip }) });
          await screen.unpose?.(page);
          const { size } = await stat(file);
          if (size < 8_000) throw new Error(`${path.basename(file)} is only ${size} bytes; it looks blank`);
          (shots[screen.name] ??= {})[kind] = file;
        } catch (error) {
          broken.set(screen.name, error);
          await page.keyboard.press('Escape');
        }
      }
      // reported once, at the end: a failed step would block the steps after it
      if (kind === 'dark') report('not set up or photographed');
    });
  }
  await test('Alt+Shift+S stops a runaway cell from the keyboard, with the selection on another cell', async () => {
    await page.setViewportSize(VIEW);
    await show({ notebook: 'keyboard.ptcnb' });
    // the one cell of keyboard.ptcnb with an endless loop of calls (mock handlers: no call budget), its last: the
    // notebook list draws only the rows near the viewport, so the selection goes there first
    await wb.runCommand(page, 'Notebook: Focus Last Cell').catch(() => {});
    const spin = codeRows(page).filter({ hasText: 'while' }).first();
    await wb.waitFor(
      "the runaway cell's row",
      async () => {
        if (await spin.isVisible()) return true;
        // the wheel over the notebook scrolls its list down, as a person would
        const box = await page.locator('.notebook-editor[data-ptc-in-view]').first().boundingBox();
        if (box) {
          await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          await page.mouse.wheel(0, 800);
        }
        return false;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    await spin.scrollIntoViewIfNeeded();
    await spin.hover();
    await spin.locator('.run-button-container .codicon-notebook-execute').first().click();
    const running = () =>
      spin
        .locator('.cell-status-left .codicon-notebook-state-executing, .cell-status-left .codicon-modifier-spin')
        .count();
    await wb.waitFor(
      'the runaway cell to run',
      async () => {
        await wb.answerKernelPicker(page, 'PTC Playground');
        return (await running()) > 0;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    // it is busy calling: the status bar counts its calls
    await sleep(3000);
    if ((await running()) === 0) throw new Error('the runaway cell ended by itself');
    // command mode, the selection moved up off the running cell: the key, not the cell's ■, stops it
    await page.keyboard.press('Escape');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
    const pressed = Date.now();
    await page.keyboard.press('Alt+Shift+S');
    await wb.waitFor('the runaway cell to stop', async () => (await running()) === 0, { timeoutMs: 30_000 });
    info('ui', `Alt+Shift+S stopped the runaway cell in ${Date.now() - pressed} ms`);
    const marked = await spin
      .locator('.cell-status-left .codicon-notebook-state-success, .cell-status-left .codicon-notebook-state-error')
      .count();
    if (marked > 0) throw new Error('the stopped cell shows ✓ or ✗; a cancelled run shows neither');
    await wb.waitFor(
      "the stopped cell's result, cancelled, in view",
      async () => (await firstInView(page, (frame) => frame.locator('.ptc-result[data-kind="abort"]'))) !== undefined,
      { timeoutMs: 30_000, intervalMs: 500 },
    );
  });
  return shots;
}

// The docs' names: docs/screenshots/vscode-<screen>-<theme>.png.
export const SCREEN_NAMES = SCREENS.map((s) => s.name);
export const SCREEN_DESCRIPTIONS = Object.fromEntries(SCREENS.map((s) => [s.name, s.what]));
