// Playwright helpers for driving the VS Code workbench in code-server the way a person does: palette, quick open,
// notebook editor, cell status, and the output webview frames where renderers draw.
// functions passed to page.evaluate run in the browser
/* global document, Node, getComputedStyle, window */

const FIRST_LOAD_TIMEOUT_MS = 120_000;

async function sleep(ms) {
  await new Promise((r) => setTimeout(r, ms));
}

// Polls fn until it returns a truthy value; throws `what` with the last error after timeoutMs.
export async function waitFor(what, fn, { timeoutMs = 30_000, intervalMs = 250 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(intervalMs);
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${last.message})` : ''}`,
  );
}

// Opens the workspace folder and waits for the workbench and its remote extension host to be up.
export async function openWorkbench(page, server) {
  await page.goto(`${server.url}/?folder=${encodeURIComponent(server.folder)}`, {
    waitUntil: 'domcontentloaded',
    timeout: FIRST_LOAD_TIMEOUT_MS,
  });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: FIRST_LOAD_TIMEOUT_MS });
  await page.locator('.part.statusbar').waitFor({ state: 'visible', timeout: FIRST_LOAD_TIMEOUT_MS });
  // the explorer lists the folder only after the remote connection is established
  await page
    .locator('.explorer-folders-view .monaco-list-row')
    .first()
    .waitFor({ state: 'visible', timeout: FIRST_LOAD_TIMEOUT_MS });
}

const quickInput = (page) => page.locator('.quick-input-widget');

async function closeQuickInput(page) {
  if (await quickInput(page).isVisible()) await page.keyboard.press('Escape');
  await quickInput(page)
    .waitFor({ state: 'hidden', timeout: 5000 })
    .catch(() => {});
}

// Opens the command palette, types text, and returns the visible rows' labels.
async function paletteRows(page, text) {
  await closeQuickInput(page);
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`>${text}`);
  await sleep(400);
  return quickInput(page).locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
}

// Runs a palette command by its exact label ("Notebook: Run All"); waits until the palette lists it.
export async function runCommand(page, label, { timeoutMs = 30_000 } = {}) {
  await waitFor(
    `the command "${label}" in the palette`,
    async () => {
      const rows = await paletteRows(page, label);
      const normalised = rows.map((r) => r.replace(/\s+/g, ' ').trim());
      if (!normalised.includes(label)) return false;
      const row = quickInput(page)
        .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: label }) })
        .first();
      await row.click();
      return true;
    },
    { timeoutMs },
  );
  await quickInput(page)
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => {});
}

// Waits until a contributed command shows in the palette: the extension's contributions are registered.
export async function waitForCommand(page, label, { timeoutMs = 90_000 } = {}) {
  await waitFor(
    `the contributed command "${label}"`,
    async () => {
      const rows = await paletteRows(page, label);
      return rows.some((r) => r.replace(/\s+/g, ' ').trim() === label);
    },
    { timeoutMs, intervalMs: 1000 },
  );
  await closeQuickInput(page);
}

// Opens a workspace file by name through Quick Open.
export async function quickOpen(page, fileName) {
  await closeQuickInput(page);
  await page.keyboard.press('Control+P');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(fileName);
  // Enter opens the focused row: wait until the filter has put this file there (the unfiltered list of recently
  // opened files can already show it further down, and Enter would then open another file)
  const focused = quickInput(page).locator('.quick-input-list .monaco-list-row.focused .label-name').first();
  await waitFor(
    `${fileName} first in Quick Open`,
    async () => (await focused.innerText({ timeout: 1000 })).trim() === fileName,
    { timeoutMs: 20_000 },
  );
  await page.keyboard.press('Enter');
  await quickInput(page)
    .waitFor({ state: 'hidden', timeout: 10_000 })
    .catch(() => {});
}

export const notebookEditor = (page) => page.locator('.notebook-editor').first();

// Opens a notebook and confirms it opened as a notebook (not as JSON text): retries while contributions load.
export async function openNotebook(page, fileName, { timeoutMs = 60_000 } = {}) {
  await waitFor(
    `${fileName} to open in the notebook editor`,
    async () => {
      await quickOpen(page, fileName);
      const opened = await notebookEditor(page)
        .waitFor({ state: 'visible', timeout: 8000 })
        .then(
          () => true,
          () => false,
        );
      if (!opened) await runCommand(page, 'View: Close All Editors').catch(() => {});
      return opened;
    },
    { timeoutMs, intervalMs: 1000 },
  );
}

// Picks the controller if VS Code asks which kernel to use (it does when none is preselected).
export async function answerKernelPicker(page, controllerLabel) {
  const widget = quickInput(page);
  if (!(await widget.isVisible())) return false;
  const row = widget.locator('.quick-input-list .monaco-list-row', { hasText: controllerLabel }).first();
  if (!(await row.isVisible())) return false;
  await row.click();
  return true;
}

// Counts code cells by their status icon: success (✓), error (✗), running, and the total rendered.
export async function cellStates(page) {
  return page.evaluate(() => {
    // only shown rows: a notebook an earlier suite left open in a background tab keeps hidden rows in the DOM
    const cells = [...document.querySelectorAll('.notebook-editor .code-cell-row')].filter(
      (c) => c.offsetParent !== null,
    );
    const count = (cls) => cells.filter((c) => c.querySelector(`.cell-status-left .codicon-${cls}`)).length;
    return {
      total: cells.length,
      success: count('notebook-state-success'),
      error: count('notebook-state-error'),
      running: count('notebook-state-executing') + count('notebook-state-pending') + count('modifier-spin'),
    };
  });
}

// Frames of the notebook output webview (`pre/index.html` → `fake.html`) that hold rendered outputs.
export function outputFrames(page) {
  return page.frames().filter((f) => f.url().includes('fake.html'));
}

// All text rendered in output frames, piercing renderer shadow roots.
export async function renderedOutputText(page) {
  const texts = [];
  for (const frame of outputFrames(page)) {
    const text = await frame
      .evaluate(() => {
        const collect = (node) => {
          let out = '';
          for (const child of node.childNodes) {
            if (child.nodeType === Node.TEXT_NODE) out += child.textContent;
            else if (child.nodeType === Node.ELEMENT_NODE) {
              const el = child;
              if (el.tagName === 'STYLE' || el.tagName === 'SCRIPT') continue;
              if (el.shadowRoot) out += collect(el.shadowRoot);
              out += collect(el);
              if (getComputedStyle(el).display === 'block') out += '\n';
            }
          }
          return out;
        };
        const root = document.querySelector('#container') ?? document.body;
        return collect(root);
      })
      .catch(() => '');
    texts.push(text);
  }
  return texts.join('\n');
}

// picker labels of the built-in themes (their setting ids are 'Default Light Modern' / 'Default Dark Modern')
export const THEMES = { light: 'Light Modern', dark: 'Dark Modern' };

// Switches the colour theme through "Preferences: Color Theme", then waits for the workbench to repaint in it.
export async function switchTheme(page, kind) {
  const cls = kind === 'dark' ? 'vs-dark' : 'vs';
  const isApplied = () =>
    page.evaluate((c) => document.querySelector('.monaco-workbench')?.classList.contains(c) ?? false, cls);
  if (!(await isApplied())) {
    await runCommand(page, 'Preferences: Color Theme');
    const input = quickInput(page).locator('input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(THEMES[kind]);
    await quickInput(page)
      .locator('.quick-input-list .monaco-list-row', { hasText: THEMES[kind] })
      .first()
      .waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await waitFor(`the ${kind} theme`, isApplied, { timeoutMs: 30_000 });
  }
  // webviews restyle from the host's CSS variables a moment later
  await sleep(1500);
}

// The page area of the nth code cell with its outputs: from its list row's top to the next row's top (outputs are
// drawn in a webview laid over the gap the list leaves below the cell's editor).
export async function cellClip(page, n) {
  const clip = await page.evaluate((index) => {
    const rows = [...document.querySelectorAll('.notebook-editor .monaco-list-row')]
      .map((el) => ({ el, rect: el.getBoundingClientRect() }))
      // a notebook in another tab keeps its rows in the page, moved out of view
      .filter((r) => r.rect.height > 0 && r.rect.right > 0 && r.rect.left < window.innerWidth)
      .sort((a, b) => a.rect.top - b.rect.top);
    const code = rows.filter((r) => r.el.classList.contains('code-cell-row') || r.el.querySelector('.code-cell-row'));
    const row = code[index];
    if (!row) return undefined;
    const next = rows.find((r) => r.rect.top > row.rect.top + 1);
    const bottom = next ? next.rect.top : row.rect.bottom;
    return { x: row.rect.left, y: row.rect.top, width: row.rect.width, height: Math.min(bottom - row.rect.top, 2400) };
  }, n);
  if (!clip || clip.height < 50) throw new Error(`code cell ${n + 1} is not rendered, so it cannot be photographed`);
  return clip;
}
