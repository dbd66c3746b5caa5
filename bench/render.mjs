// Render performance for the bench: first paint of the built notebook renderer in headless Debian Chromium.
// bench/run.mjs calls the default export; `node bench/render.mjs` prints the rows on its own.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import buildWebview from '../scripts/build-webview.mjs';
import { launchChromium } from '../test/webview/helpers/chromium.mjs';
import { startPageServer } from '../test/webview/helpers/page-server.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGET_MS = 100;
const WARMUP = 3;
const SAMPLES = 20;

// fixture name → bench row name
const CASES = [
  ['timeline-300', 'render: first paint, 300-call timeline'],
  ['logs-1mb', 'render: first paint, 1 MB of logs'],
];

// p50/p95 of first paint (output item handed to renderOutputItem → next frame out) per fixture, fresh output each time.
export default async function measureRender({ samples = SAMPLES } = {}) {
  if (!existsSync(path.join(repo, 'dist', 'webview', 'renderer.js'))) await buildWebview();
  const [server, chrome] = await Promise.all([startPageServer(), launchChromium()]);
  try {
    const page = await chrome.context.newPage();
    await page.goto(`${server.origin}/page/renderer.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate(
      (names) => globalThis.harness.preload(names),
      CASES.map(([fixture]) => fixture),
    );
    const rows = [];
    for (const [fixture, name] of CASES) {
      const times = [];
      for (let i = 0; i < WARMUP + samples; i += 1) {
        const id = `${fixture}-${i}`;
        const ms = await page.evaluate(([f, outputId]) => globalThis.harness.measure(f, outputId), [fixture, id]);
        // dispose and detach so every sample paints into a page of the same size
        await page.evaluate((outputId) => globalThis.harness.remove(outputId), id);
        if (i >= WARMUP) times.push(ms);
      }
      const p50Ms = round(quantile(times, 0.5));
      const p95Ms = round(quantile(times, 0.95));
      rows.push({
        name,
        p50Ms,
        p95Ms,
        targetMs: TARGET_MS,
        pass: p95Ms <= TARGET_MS,
        samples: times.length,
        chromium: chrome.version,
      });
    }
    return rows;
  } finally {
    await chrome.close();
    await server.close();
  }
}

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] ?? Number.NaN;
}

function round(ms) {
  return Math.round(ms * 10) / 10;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await measureRender();
  for (const row of rows)
    process.stdout.write(
      `${row.pass ? 'PASS' : 'FAIL'} ${row.name}: p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms (target ≤ ${row.targetMs} ms)\n`,
    );
  process.exitCode = rows.every((r) => r.pass) ? 0 : 1;
}
