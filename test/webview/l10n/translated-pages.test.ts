import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { InspectorRun } from '../../../webview/protocol/inspector-messages.js';
import { createNonce, inspectorHtml } from '../../../webview/inspector/inspector-html.js';
import { L10N_LIMITS } from '../../../webview/protocol/l10n-bundle.js';
import { cassetteRun } from '../../../webview/shared/cassette-run.js';
import { modelView } from '../../../webview/shared/model-view.js';
import { transcriptRun } from '../../../webview/shared/transcript-run.js';
import type { ExpectationReport } from '../../../runtime/protocol/expectation-report.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { fixturePayload } from '../fixtures/run-results.mjs';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
const PAGE = path.resolve(import.meta.dirname, '..', 'page');
const gate = chromiumGate();

// A pseudo-translation of the committed bundle: every message wrapped in ⟦…⟧, its {n} placeholders kept.
const english = JSON.parse(readFileSync(path.join(REPO, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
const pseudo = Object.fromEntries(Object.keys(english).map((key) => [key, `⟦${key}⟧`]));
const wrapped = (message: string): string => `⟦${message}⟧`;

// Where a page shows data rather than words for people: program output, values, names, code. Text there is never
// translated; everywhere else an English word outside ⟦…⟧ is a string that skipped l10n.t.
const DATA = [
  'code', // call labels, paths, expected/got values
  'pre', // failure messages, the model text, call error messages
  '.ptc-key, .ptc-val, .ptc-badge, .ptc-range', // JSON keys, values, type tags and index ranges
  '.ptc-log-text', // printed output
  '.ptc-line-text', // diff lines
  '.ptc-frame-line', // program source
  '.ptc-frame-button', // stack frames as the runtime printed them
  '.ptc-bar', // a timeline bar's call label (its tooltip and accessible name are still checked)
  '.ptc-type-tag', // JSON type tags such as string(5): JSON's own type names
  '.ptc-kind', // the failure kind badge: the protocol's kind name, like code
  '[data-fact="mode"]', // the mode setting's value (also a row of the diff's outcome table)
  '.ptc-diff-answer', // a call's answer in the diff: a value preview or the call's error message
  '.ptc-mismatch-reason', // the runtime's own reason for an expectation mismatch, like an error message
  '.ptc-then-mark', // the import's notes on what cannot be reproduced, saved in the notebook as data
  'select', // run labels in the pickers
  'th[scope="col"]', // run labels heading the diff columns
].join(', ');

interface Strays {
  // visible text (and tooltip or accessible name) with an English word outside ⟦…⟧, outside the data above
  strays: string[];
  // how many visible text nodes carried a translated message (so an empty page cannot pass)
  translated: number;
}

// Runs in the page: walks the visible text under the output (into its shadow root) and the title/aria-label people
// read, drops every ⟦…⟧ (innermost first: translations nest), and reports what English is left outside data.
function strayEnglish([hostSelector, dataSelector, allowed]: readonly [string, string, readonly string[]]): Strays {
  const host = document.querySelector(hostSelector);
  if (host === null) throw new Error(`no ${hostSelector}`);
  const root: ParentNode = host.shadowRoot ?? host;
  const words = new Set(allowed);
  const english = (text: string): boolean => {
    let rest = text;
    for (let before = ''; before !== rest;) {
      before = rest;
      rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
    }
    const tokens = (rest.match(/[A-Za-z][\w.'-]*/g) ?? []).map((token) => token.replace(/[.'-]+$/, ''));
    return tokens.some((word) => word.length > 1 && !words.has(word));
  };
  const out: Strays = { strays: [], translated: 0 };
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    const text = node.textContent ?? '';
    if (parent === null || text.trim() === '' || !parent.checkVisibility()) continue;
    if (text.includes('⟦')) out.translated += 1;
    if (parent.closest(dataSelector) === null && english(text))
      out.strays.push(`<${parent.tagName.toLowerCase()} class="${parent.className}">${text}`);
  }
  for (const element of Array.from(root.querySelectorAll('[title], [aria-label]'))) {
    for (const name of ['title', 'aria-label']) {
      const value = element.getAttribute(name);
      if (value !== null && english(value)) out.strays.push(`<${element.tagName.toLowerCase()} ${name}="${value}">`);
    }
  }
  return out;
}

// Names that read the same in every language: product and language names, the sandbox mechanisms, program files.
const NAMES = [
  'TypeScript',
  'Python',
  'landlock',
  'seccomp',
  'unshare-net',
  'bubblewrap',
  'program.ts',
  'program.py',
  'run_code',
];
// Fixtures whose views between them draw every part: sections, timeline, failure cards, truncation, summaries.
const RENDERED = [
  'success',
  'binding-failure',
  'python-exception',
  'calls-summarized',
  'nothing-returned',
  'logs-mixed',
  'hostile',
  ...[
    'exception',
    'timeout',
    'abort',
    'worker-exit',
    'invalid-output',
    'output-limit',
    'protocol',
    'sandbox-unavailable',
  ].map((k) => `failure-${k}`),
];

let chrome: LaunchedChromium;
let server: PageServer;

describe.skipIf(!gate.usable)(gate.title('the renderer and the inspector in the display language (Chromium)'), () => {
  beforeAll(async () => {
    [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  describe('notebook renderer', () => {
    async function openRenderer(query = ''): Promise<Page> {
      const page = await chrome.context.newPage();
      await page.goto(`${server.origin}/page/renderer.html${query}`);
      await page.waitForSelector('body[data-ready="true"]');
      return page;
    }
    const render = (page: Page, name: string, id = name): Promise<string> =>
      page.evaluate(([n, i]) => window.harness.render(n, i), [name, id] as const);
    const send = (page: Page, message: unknown): Promise<void> => page.evaluate((m) => window.harness.send(m), message);
    const texts = (page: Page, id: string, selector: string): Promise<string[]> =>
      page.locator(`#${id} ${selector}`).evaluateAll((els) => els.map((e) => e.textContent ?? ''));

    test('asks the host for the bundle, draws English at once, and redraws in the display language when it arrives', async () => {
      const page = await openRenderer();
      expect(await page.evaluate(() => window.harness.posted)).toEqual([{ type: 'l10n-request', requestId: 'l10n' }]);
      await render(page, 'success');
      expect(await texts(page, 'success', '[data-action]')).toEqual([
        'Open in inspector',
        'Re-run',
        'Record',
        'Replay',
      ]);
      expect(await page.locator('#success .ptc-status').textContent()).toBe('✓Succeeded');

      await send(page, { type: 'l10n', bundle: pseudo });
      await expect
        .poll(() => texts(page, 'success', '[data-action]'))
        .toEqual(['Open in inspector', 'Re-run', 'Record', 'Replay'].map(wrapped));
      expect(await page.locator('#success .ptc-status').textContent()).toBe(`✓${wrapped('Succeeded')}`);
      expect(await page.locator('#success [data-toggle="details"]').textContent()).toBe(wrapped('Details'));
      expect(await page.locator('#success [data-action="rerun"]').getAttribute('title')).toBe(
        wrapped('Run this cell again'),
      );
      // an output drawn after the bundle arrived is in the display language from the start
      await render(page, 'failure-timeout', 'later');
      expect(await texts(page, 'later', '[data-action]')).toEqual(
        ['Open in inspector', 'Re-run', 'Record', 'Replay'].map(wrapped),
      );
      // the redraw kept one live output per item
      expect(await page.evaluate(() => window.harness.active())).toBe(2);
      await page.close();
    });

    test('the full view and an unreadable output are translated too, placeholders filled', async () => {
      const page = await openRenderer('?view=full');
      await send(page, { type: 'l10n', bundle: pseudo });
      await render(page, 'success');
      const titles = await texts(page, 'success', '.ptc-section-title');
      expect(titles.length).toBeGreaterThan(2);
      for (const title of titles) expect(title).toMatch(/^⟦.+⟧$/);
      await page.evaluate(() => window.harness.renderText('broken', '{"not json'));
      const invalid = await page.locator('#broken [data-section="invalid"]').textContent();
      expect(invalid).toContain(wrapped('This PTC result could not be displayed.'));
      expect(invalid).toMatch(/⟦The output is not valid JSON: [^{}]+⟧/);
      await page.close();
    });

    test.each(['compact', 'full'])(
      'the %s view shows no English word for people outside data, for every kind of result',
      async (view) => {
        const page = await openRenderer(view === 'full' ? '?view=full' : '');
        await send(page, { type: 'l10n', bundle: pseudo });
        for (const name of RENDERED) {
          await render(page, name);
          // the full view's call details too: the first call's arguments, answer, flags and timing
          if (view === 'full' && (await page.locator(`#${name} .ptc-bar`).count()) > 0) {
            await page.locator(`#${name} .ptc-bar`).first().dispatchEvent('click');
            await page.locator(`#${name} .ptc-call`).waitFor();
          }
          const found = await page.evaluate(strayEnglish, [`#${name}`, DATA, NAMES] as const);
          expect(found.strays, name).toEqual([]);
          expect(found.translated, name).toBeGreaterThan(3);
        }
        // the expectation line and section: met, and missed with masked paths
        const expectations: ExpectationReport[] = [
          { ok: true, checked: [{ field: 'value', match: 'exact' }], mismatches: [] },
          {
            ok: false,
            checked: [
              { field: 'value', match: 'exact' },
              { field: 'calls', match: 'shape' },
            ],
            mismatches: [
              { field: 'value', match: 'exact', path: '$.a', reason: 'different value', expected: '1', actual: '2' },
            ],
            masked: [{ field: 'value', paths: ['$.id'] }],
          },
        ];
        for (const [i, expectation] of expectations.entries()) {
          const payload = { ...fixturePayload('success'), cellId: 'cell-1', expectation };
          await page.evaluate(([id, text]) => window.harness.renderText(id, text), [
            `expect-${i}`,
            JSON.stringify(payload),
          ] as const);
          const found = await page.evaluate(strayEnglish, [`#expect-${i}`, DATA, NAMES] as const);
          expect(found.strays, `expectation ${i}`).toEqual([]);
          expect(await page.locator(`#expect-${i} [data-section="expectation"]`).count()).toBe(1);
        }
        await page.close();
      },
    );

    test('the check finds English: the same views without a bundle report the strings it would miss', async () => {
      const page = await openRenderer('?view=full');
      for (const name of ['success', 'failure-timeout']) {
        await render(page, name);
        const found = await page.evaluate(strayEnglish, [`#${name}`, DATA, NAMES] as const);
        expect(found.translated).toBe(0);
        expect(found.strays.join('\n')).toContain('Re-run');
        expect(found.strays.length, name).toBeGreaterThan(10);
      }
      await page.close();
    });

    test.each([
      ['a message that is not an l10n message', { type: 'l10n', bundle: 'Re-run' }],
      ['a translation that is not a string', { type: 'l10n', bundle: { 'Re-run': 42 } }],
      [
        'an oversized bundle',
        {
          type: 'l10n',
          bundle: Object.fromEntries(Array.from({ length: L10N_LIMITS.entries + 1 }, (_, i) => [`m${i}`, 'x'])),
        },
      ],
      [
        'a translation longer than the limit',
        { type: 'l10n', bundle: { 'Re-run': 'x'.repeat(L10N_LIMITS.valueLength + 1) } },
      ],
    ])('%s is ignored: the output stays in English', async (_what, message) => {
      const page = await openRenderer();
      await render(page, 'success');
      await send(page, message);
      await send(page, { type: 'cell-state', cellId: 'cell-1', hasCassette: true, running: false });
      // the cell-state message after it was handled, so the hostile one was too
      await expect.poll(() => page.locator('#success [data-action="replay"]').isDisabled()).toBe(false);
      expect(await texts(page, 'success', '[data-action]')).toEqual([
        'Open in inspector',
        'Re-run',
        'Record',
        'Replay',
      ]);
      await page.close();
    });

    test('without renderer messaging nothing is asked and the output is English', async () => {
      const page = await openRenderer('?messaging=0');
      await render(page, 'success');
      expect(await page.evaluate(() => window.harness.posted)).toEqual([]);
      expect(await page.locator('#success [data-toggle="details"]').textContent()).toBe('Details');
      await page.close();
    });
  });

  describe('run inspector', () => {
    let hostScript: string;
    const RUN: InspectorRun = {
      id: 'run-1',
      label: 'cell 1 · run 1',
      source: 'cell',
      createdAt: '2026-12-03T11:00:00.000Z',
      payload: fixturePayload('success'),
    };

    beforeAll(async () => {
      const themes = await readFile(path.join(PAGE, 'themes.css'), 'utf8');
      hostScript = `window.__PTC_THEME_CSS = ${JSON.stringify(themes)};\n${await readFile(path.join(PAGE, 'inspector-host.js'), 'utf8')}`;
    });

    // The panel document as the extension builds it, here with a bundle the host handed over.
    async function openInspector(route: string, bundle: unknown): Promise<Page> {
      server.route(route, 'text/html', () =>
        inspectorHtml({
          scriptUri: `${server.origin}/dist/webview/inspector.js`,
          cspSource: server.origin,
          nonce: createNonce(),
          // the html writer is typed; a hostile bundle is forced through to test the page's own check
          l10n: bundle as Record<string, string>,
          text: { title: wrapped('PTC Run Inspector'), loading: wrapped('Loading the run inspector…') },
        }),
      );
      const page = await chrome.context.newPage();
      await page.addInitScript(hostScript);
      await page.goto(`${server.origin}${route}`);
      await page.waitForSelector('.ptc-inspector-header');
      return page;
    }

    test('draws every view in the display language from its first paint', async () => {
      const page = await openInspector('/inspector-l10n.html', pseudo);
      expect(await page.title()).toBe(wrapped('PTC Run Inspector'));
      expect(await page.locator('h1').textContent()).toBe(wrapped('Run inspector'));
      expect(await page.locator('.ptc-empty').textContent()).toBe(
        wrapped('No run to show yet. Run a cell and choose "Open in inspector", or open a cassette file.'),
      );
      expect(await page.locator('[role="tab"]').allTextContents()).toEqual(
        ['Run', 'What the model sees', 'Diff'].map(wrapped),
      );
      // what panel.webview.postMessage does: a window message event in the page
      const load: unknown = JSON.parse(JSON.stringify({ type: 'load', runs: [RUN], selectedId: RUN.id }));
      await page.evaluate((m) => window.postMessage(m, '*'), load);
      await expect.poll(() => page.locator('[data-action="rerun"]').textContent()).toBe(wrapped('Re-run cell'));
      expect(await page.locator('[data-action="open-cassette"]').textContent()).toBe(wrapped('Open cassette…'));
      const titles = await page.locator('#ptc-tab-panel .ptc-section-title').allTextContents();
      expect(titles.length).toBeGreaterThan(2);
      for (const title of titles) expect(title).toMatch(/^⟦.+⟧$/);
      await page.close();
    });

    const inspectorRun = (id: string, fixture: string): InspectorRun => ({
      ...RUN,
      id,
      label: `cell 1 · ${id}`,
      payload: fixturePayload(fixture),
    });
    const RUNS = [
      'success',
      'failure-exception',
      'failure-output-limit',
      'binding-failure',
      'calls-summarized',
      'diff-live',
      'diff-replay',
    ].map((f) => inspectorRun(f, f));
    const strays = async (page: Page): Promise<Strays> => {
      const found = await page.evaluate(strayEnglish, ['body', DATA, NAMES] as const);
      expect(found.translated).toBeGreaterThan(3);
      return found;
    };

    test('the run, model and diff tabs show no English word for people outside data, and the model text stays exact', async () => {
      const page = await openInspector('/inspector-words.html', pseudo);
      const load: unknown = JSON.parse(JSON.stringify({ type: 'load', runs: RUNS, selectedId: 'diff-replay' }));
      await page.evaluate((m) => window.postMessage(m, '*'), load);
      await page.locator('#ptc-run-picker').waitFor();
      for (const run of RUNS) {
        await page.locator('#ptc-tab-run').click();
        await page.locator('#ptc-run-picker').selectOption(run.id);
        await expect.poll(() => page.locator('#ptc-tab-panel [data-section="summary"]').count()).toBe(1);
        if ((await page.locator('#ptc-tab-panel .ptc-bar').count()) > 0) {
          await page.locator('#ptc-tab-panel .ptc-bar').first().dispatchEvent('click');
          await page.locator('#ptc-tab-panel .ptc-call').waitFor();
        }
        expect((await strays(page)).strays, `${run.id}: run tab`).toEqual([]);
        await page.locator('#ptc-tab-model').click();
        // what the model sees is shown exactly, whatever the display language
        expect(await page.locator('.ptc-model-text').textContent(), run.id).toBe(modelView(run.payload.result).text);
        expect((await strays(page)).strays, `${run.id}: model tab`).toEqual([]);
      }
      await page.locator('#ptc-tab-diff').click();
      await page.locator('#ptc-diff-left').selectOption('diff-live');
      await page.locator('#ptc-diff-right').selectOption('diff-replay');
      await page.locator('.ptc-first-divergence .ptc-row-toggle').click();
      expect(await page.locator('.ptc-diff-summary').textContent()).toMatch(
        /^⟦First divergence: ⟧⟦call #3 tools\.fetch: ⟦⟦args⟧, ⟦outcome⟧ differ⟧⟧/,
      );
      expect((await strays(page)).strays, 'diff tab').toEqual([]);
      // a summarized run against a plain one: the call-summary notes and the calls' counts
      await page.locator('#ptc-diff-left').selectOption('calls-summarized');
      await page.locator('#ptc-diff-right').selectOption('success');
      expect((await strays(page)).strays, 'diff tab, summarized').toEqual([]);
      await page.close();
    });

    test('a cassette, a transcript record and Then vs now show no English word for people outside data', async () => {
      const calls = fixturePayload('binding-failure').result.calls;
      const cassette = cassetteRun({
        id: 'cassette',
        label: 'cell-1.cassette.json',
        language: 'typescript',
        calls: [
          ...calls.map((c) => ({
            global: c.global,
            name: c.name,
            args: c.args,
            ok: c.ok,
            value: c.value,
            message: c.message,
            durationMs: c.durationMs,
          })),
          { global: 'tools', name: 'late', args: {}, ok: false, pending: true as const, durationMs: 0 },
        ],
      });
      const then = transcriptRun({
        id: 'then',
        label: 'cell 1 · transcript',
        language: 'typescript',
        then: {
          logs: ['hello'],
          calls: [{ global: 'tools', name: 'search', args: { q: 'x' }, ok: true, value: [] }],
          error: { kind: 'exception', message: 'Error: x' },
        },
        format: 'claude-code',
        compare: 'result',
        origin: 'run.jsonl line 4',
        marks: ['the transcript cut the output'],
      });
      const page = await openInspector('/inspector-records.html', pseudo);
      const load: unknown = JSON.parse(
        JSON.stringify({
          type: 'load',
          runs: [inspectorRun('success', 'success'), cassette, then],
          selectedId: 'cassette',
        }),
      );
      await page.evaluate((m) => window.postMessage(m, '*'), load);
      await expect.poll(() => page.locator('[data-source="cassette"]').count()).toBe(1);
      expect((await strays(page)).strays, 'cassette, run tab').toEqual([]);
      await page.locator('#ptc-tab-model').click();
      expect((await strays(page)).strays, 'cassette, model tab').toEqual([]);
      await page.locator('#ptc-tab-run').click();
      await page.locator('#ptc-run-picker').selectOption('then');
      await expect.poll(() => page.locator('[data-source="transcript"]').count()).toBe(1);
      expect((await strays(page)).strays, 'transcript record').toEqual([]);
      await page.locator('#ptc-run-picker').selectOption('success');
      await page.locator('#ptc-tab-then').click();
      await expect.poll(() => page.locator('.ptc-then-now').count()).toBe(1);
      expect((await strays(page)).strays, 'then vs now').toEqual([]);
      await page.close();
    });

    test('a bundle with a non-string translation is refused by the page: English stays', async () => {
      const page = await openInspector('/inspector-hostile-l10n.html', { 'Run inspector': { message: 'x' } });
      expect(await page.locator('h1').textContent()).toBe('Run inspector');
      // and the stray-English check sees it, so its passes on the translated page are not vacuous
      const found = await page.evaluate(strayEnglish, ['body', DATA, NAMES] as const);
      expect(found.translated).toBe(0);
      expect(found.strays.join('\n')).toContain('Run inspector');
      await page.close();
    });
  });
});
