// UI suite: a person's path through the tour notebook in the real workbench, checked in the rendered webview.
// Opens examples/tour.ptcnb, runs all cells, reads what the renderer drew (the compact view: printed output, value
// tree, failure, status line; the full view with its timeline one click away) from the output frames, and takes light
// and dark screenshots into test-results/vscode/.
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
// functions passed to evaluate run in the browser
/* global document, getComputedStyle */
import path from 'node:path';
import { info } from './log.mjs';
import { runDebuggerShots } from './ui-debugger-shots.mjs';
import { REPO_ROOT, SCREENSHOT_DOCS_DIR } from './paths.mjs';
import { screenSteps } from './ui-screens.mjs';
import * as wb from './workbench.mjs';

const TOUR = 'tour.ptcnb';
const WIDE = { width: 1440, height: 900 };
// tall enough that the notebook list renders every tour cell (it virtualises rows outside the viewport)
const TALL = { width: 1440, height: 16000 };
// code cells (0-based) photographed for the docs: the first TypeScript cell and the uncaught-exception cell
const CELL_SHOT = 0;
const FAILURE_SHOT = 3;

// The palette label of a contributed command ("Category: Title"), with package.nls.json placeholders resolved.
async function paletteLabel(commandId) {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const nls = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.nls.json'), 'utf8').catch(() => '{}'));
  const resolve = (s) => (typeof s === 'string' ? s.replace(/^%(.+)%$/, (_, key) => nls[key] ?? s) : s);
  const command = (manifest.contributes?.commands ?? []).find((c) => c.command === commandId);
  if (!command) throw new Error(`package.json contributes no command ${commandId}`);
  const category = resolve(command.category);
  const title = resolve(command.title);
  return category ? `${category}: ${title}` : title;
}

async function tourCodeCells() {
  const tour = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples', TOUR), 'utf8'));
  return tour.cells.filter((c) => c.kind === 'code').length;
}

// Counts renderer elements across the output frames (Playwright locators pierce the renderer's shadow roots).
async function countInOutputs(page, selector) {
  let n = 0;
  for (const frame of wb.outputFrames(page))
    n += await frame
      .locator(selector)
      .count()
      .catch(() => 0);
  return n;
}

async function textsInOutputs(page, selector) {
  const texts = [];
  for (const frame of wb.outputFrames(page))
    texts.push(
      ...(await frame
        .locator(selector)
        .allInnerTexts()
        .catch(() => [])),
    );
  return texts;
}

// Relative luminance (0 dark … 1 light) of an element's effective background, read in the page or a frame.
async function backgroundLuminance(target, selector) {
  return target.evaluate((sel) => {
    let el = document.querySelector(sel);
    while (el) {
      const match = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(
        getComputedStyle(el).backgroundColor,
      );
      if (match && (match[4] === undefined || Number(match[4]) > 0.5)) {
        const [r, g, b] = [match[1], match[2], match[3]].map((v) => Number(v) / 255);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      }
      el = el.parentElement;
    }
    return undefined;
  }, selector);
}

// Luminance of a CSS colour (rgb/rgba), 0 dark … 1 light.
function luminance(css) {
  const match = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(css ?? '');
  if (!match) return undefined;
  const [r, g, b] = [match[1], match[2], match[3]].map((v) => Number(v) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// Text colour luminance of the first rendered result (locators pierce the renderer's shadow root).
async function outputTextLuminance(page) {
  for (const frame of wb.outputFrames(page)) {
    const result = frame.locator('.ptc-result').first();
    if ((await result.count().catch(() => 0)) === 0) continue;
    return luminance(await result.evaluate((el) => getComputedStyle(el).color));
  }
  return undefined;
}

export async function runUiSuite({ browser, server, resultsDir }) {
  const outcome = { passed: [], failed: [], pending: [] };
  let blocked;
  const test = async (title, fn) => {
    if (blocked) {
      outcome.failed.push({ title, error: `not run: "${blocked}" failed first` });
      return;
    }
    const started = Date.now();
    try {
      await fn();
      outcome.passed.push(title);
      info('ui', `✓ ${title} (${Date.now() - started} ms)`);
    } catch (error) {
      outcome.failed.push({ title, error: error.stack ?? error.message });
      info('ui', `✗ ${title}: ${error.message}`);
      await page.screenshot({ path: path.join(resultsDir, `failure-${outcome.failed.length}.png`) }).catch(() => {});
      blocked = title;
    }
  };

  await mkdir(resultsDir, { recursive: true });
  const context = await browser.newContext({ viewport: WIDE, colorScheme: 'light' });
  const page = await context.newPage();
  const shots = {};
  let screens;
  try {
    await test('the workbench opens the workspace with the extension active', async () => {
      await wb.openWorkbench(page, server);
      await wb.runCommand(page, 'View: Close All Editors').catch(() => {});
      await wb.switchTheme(page, 'light');
      // contributions register after the explorer shows files; a notebook opened earlier opens as JSON text.
      // "New PTC Notebook" is the one contributed command the palette lists without a notebook open.
      await wb.waitForCommand(page, await paletteLabel('ptcPlayground.newNotebook'));
    });

    await test('examples/tour.ptcnb opens in the notebook editor', async () => {
      await wb.openNotebook(page, TOUR);
      await page
        .locator('.notebook-editor .code-cell-row')
        .filter({ visible: true })
        .first()
        .waitFor({ state: 'visible', timeout: 60_000 });
    });

    const expectedCells = await tourCodeCells();
    await test(`Run All finishes all ${expectedCells} code cells with ✓ or ✗`, async () => {
      await page.setViewportSize(TALL);
      await wb.runCommand(page, 'Notebook: Run All');
      await wb.waitFor(
        'the PTC Playground kernel to be chosen',
        async () =>
          (await wb.answerKernelPicker(page, 'PTC Playground')) ||
          !(await page.locator('.quick-input-widget').isVisible()),
        { timeoutMs: 10_000 },
      );
      let last;
      const states = await wb
        .waitFor(
          `all ${expectedCells} code cells to finish`,
          async () => {
            const s = (last = await wb.cellStates(page));
            return s.total >= expectedCells && s.running === 0 && s.success + s.error === expectedCells ? s : false;
          },
          { timeoutMs: 180_000, intervalMs: 500 },
        )
        .catch((error) => {
          // which cells were missing, still running or unmarked is the first thing a failure here needs
          throw new Error(`${error.message}; last seen: ${JSON.stringify(last)}`);
        });
      if (states.success === 0) throw new Error(`no cell succeeded: ${JSON.stringify(states)}`);
      if (states.error === 0) throw new Error(`the tour's failing cells all show ✓: ${JSON.stringify(states)}`);
    });

    await test('the renderer draws compact results: printed output, a value tree, a failure, one status line each', async () => {
      const counts = await wb.waitFor(
        'rendered results in the output frames',
        async () => {
          const c = {
            results: await countInOutputs(page, '.ptc-result'),
            compact: await countInOutputs(page, '.ptc-result[data-view="compact"]'),
            statusLines: await countInOutputs(page, '.ptc-result > .ptc-summary'),
            printed: await countInOutputs(page, '.ptc-logs'),
            values: await countInOutputs(page, '.ptc-tree-wrap'),
            failures: await countInOutputs(page, '.ptc-failure'),
            sectionHeadings: await countInOutputs(page, '.ptc-section-toggle'),
          };
          return c.results >= expectedCells &&
            c.compact === c.results &&
            c.statusLines === c.results &&
            c.printed > 0 &&
            c.values > 0 &&
            c.failures > 0
            ? c
            : false;
        },
        { timeoutMs: 60_000, intervalMs: 1000 },
      );
      info('ui', `rendered: ${JSON.stringify(counts)}`);
      if (counts.sectionHeadings !== 0)
        throw new Error(`the compact view shows ${counts.sectionHeadings} section heading(s)`);
      const failureTexts = await textsInOutputs(page, '.ptc-failure-message, .ptc-failure-explained');
      if (!failureTexts.some((t) => t.trim().length > 0)) throw new Error('failures carry no message text');
      const printed = await textsInOutputs(page, '.ptc-log-text');
      if (!printed.some((t) => t.trim().length > 0)) throw new Error('printed output is empty');
      // a successful result reads at a glance: well under the 450–700 px the dashboard layout took
      const heights = [];
      for (const frame of wb.outputFrames(page))
        heights.push(
          ...(await frame
            .locator('.ptc-result[data-outcome="success"]')
            .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))
            .catch(() => [])),
        );
      info('ui', `compact success heights: ${heights.map((h) => Math.round(h)).join(', ')} px`);
      if (heights.length === 0 || Math.min(...heights) > 250)
        throw new Error(`compact successes are too tall: ${heights.join(', ')}`);
    });

    await test('Details opens the full view of a result with binding calls, timeline included', async () => {
      let opened = false;
      for (const frame of wb.outputFrames(page)) {
        const withCalls = frame.locator('.ptc-result:has([data-fact="calls"]) [data-toggle="details"]').first();
        if ((await withCalls.count().catch(() => 0)) === 0) continue;
        await withCalls.click();
        opened = true;
        break;
      }
      if (!opened) throw new Error('no rendered result with binding calls has a Details toggle');
      await wb.waitFor(
        'a timeline in the full view',
        async () => (await countInOutputs(page, '.ptc-result[data-view="full"] .ptc-timeline')) > 0,
        {
          timeoutMs: 20_000,
          intervalMs: 500,
        },
      );
    });

    for (const kind of ['light', 'dark']) {
      await test(`screenshots in the ${kind} theme`, async () => {
        await wb.switchTheme(page, kind);
        await page.setViewportSize(TALL);
        await new Promise((r) => setTimeout(r, 1500));
        const wantDark = kind === 'dark';
        const workbenchLum = await backgroundLuminance(page, '.notebook-editor');
        if (workbenchLum === undefined) throw new Error('no background colour found in the notebook editor');
        if (wantDark ? workbenchLum > 0.35 : workbenchLum < 0.65)
          throw new Error(`the notebook editor is not ${kind} (luminance ${workbenchLum.toFixed(2)})`);
        // the renderer draws on the editor's background, so its text colour tells whether it follows the theme
        const textLum = await outputTextLuminance(page);
        if (textLum === undefined) throw new Error('no rendered result found to read its text colour');
        if (wantDark ? textLum < 0.5 : textLum > 0.5)
          throw new Error(`the rendered output's text is not styled for ${kind} (luminance ${textLum.toFixed(2)})`);
        // at the tall viewport every cell is rendered, so a clip of one cell's row holds its code and its output
        const files = {
          cell: path.join(resultsDir, `tour-${kind}-cell.png`),
          failure: path.join(resultsDir, `tour-${kind}-failure.png`),
          full: path.join(resultsDir, `tour-${kind}.png`),
        };
        await page.screenshot({ path: files.cell, clip: await wb.cellClip(page, CELL_SHOT) });
        await page.screenshot({ path: files.failure, clip: await wb.cellClip(page, FAILURE_SHOT) });
        await page.setViewportSize(WIDE);
        await wb.runCommand(page, 'Notebook: Focus First Cell').catch(() => {});
        await new Promise((r) => setTimeout(r, 1000));
        await page.screenshot({ path: files.full });
        for (const file of Object.values(files)) {
          const { size } = await stat(file);
          if (size < 20_000) throw new Error(`${path.basename(file)} is only ${size} bytes; the page looks blank`);
        }
        shots[kind] = files;
      });
    }

    screens = await screenSteps({ page, test, resultsDir });
    await runDebuggerShots({ page, test, resultsDir });
  } finally {
    await context.close().catch(() => {});
  }
  if (process.env.PTC_E2E_UPDATE_SCREENSHOTS === '1' && shots.light && shots.dark) {
    await mkdir(SCREENSHOT_DOCS_DIR, { recursive: true });
    for (const [kind, files] of Object.entries(shots)) {
      for (const [name, file] of Object.entries(files))
        await copyFile(file, path.join(SCREENSHOT_DOCS_DIR, `vscode-${name === 'full' ? 'tour' : name}-${kind}.png`));
    }
    info('ui', `copied the screenshots into ${path.relative(REPO_ROOT, SCREENSHOT_DOCS_DIR)}`);
  }
  if (process.env.PTC_E2E_UPDATE_SCREENSHOTS === '1') {
    await mkdir(SCREENSHOT_DOCS_DIR, { recursive: true });
    // a screen is copied only in both themes, so the docs never pair a new picture with a stale one
    for (const [name, files] of Object.entries(screens ?? {}))
      if (files.light && files.dark)
        for (const [kind, file] of Object.entries(files))
          await copyFile(file, path.join(SCREENSHOT_DOCS_DIR, `vscode-${name}-${kind}.png`));
  }
  return outcome;
}
