import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { parseResultPayload, type ResultPayload } from '../../../webview/protocol/result-payload.js';
import { formatResultText } from '../../../webview/shared/format-result-text.js';
import { chromiumGate } from '../helpers/browser-gate.js';
import { launchChromium, type LaunchedChromium } from '../helpers/chromium.mjs';
import { startPageServer, type PageServer } from '../helpers/page-server.mjs';
import { EXAMPLE_BINDINGS, ptcRunJson } from '../helpers/ptc-cli.js';

// Results produced by the real runtime (`ptc run --json` from dist/), rendered by the built renderer: the fixtures
// elsewhere are hand-written, so this is where a drift between runtime messages and the renderer shows up.

const gate = chromiumGate();

interface Program {
  file: string;
  source: string;
  args?: string[];
  // a bindings module of the test's own (written beside the program) instead of the examples'
  bindings?: { file: string; source: string };
}

// `tools.add` whose calls each wait until all twelve have started: they overlap by construction, so their lanes do not
// depend on timing (the examples' instant mock could finish each call before the next began on a loaded machine)
const BARRIER_BINDINGS = `let started = 0;
const everyone = new Promise((resolve) => { globalThis.__ptcAllStarted = resolve; });
export default {
  tools: {
    functions: {
      add: {
        mock: async ({ a, b }) => {
          if (++started === 12) globalThis.__ptcAllStarted();
          // bounded: a program that made fewer calls still ends
          await Promise.race([everyone, new Promise((resolve) => setTimeout(resolve, 30_000))]);
          return a + b;
        },
      },
    },
  },
};
`;

const PROGRAMS: Record<string, Program> = {
  cities: {
    file: 'cities.ts',
    source:
      "const names = ['Paris', 'Lyon', 'Atlantis'];\nconst settled = await Promise.allSettled(names.map((name) => tools.lookupCity({ name })));\nconsole.log(`found ${settled.filter((s) => s.status === 'fulfilled').length}`);\nreturn settled.map((s) => s.status);",
  },
  parallel: {
    file: 'parallel.ts',
    source:
      "const sums = await Promise.all(Array.from({ length: 12 }, (_, i) => tools.add({ a: i, b: 1 })));\nconsole.error('warn: twelve calls');\nreturn sums;",
    bindings: { file: 'barrier.bindings.mjs', source: BARRIER_BINDINGS },
  },
  binding: {
    file: 'binding.ts',
    source:
      "console.log('looking up');\nconst paris = await tools.lookupCity({ name: 'Paris' });\nconst nowhere = await tools.lookupCity({ name: 'Atlantis' });\nreturn { paris, nowhere };",
  },
  exception: {
    file: 'exception.ts',
    source:
      "console.log('about to fail');\nconst user = { manager: null as null | { name: string } };\nreturn user.manager!.name.toUpperCase();",
  },
  timeout: { file: 'timeout.ts', source: "console.log('spinning');\nfor (;;) {}", args: ['--timeout-ms', '1500'] },
  'output-limit': {
    file: 'big.ts',
    source: "for (let i = 0; ; i++) console.log('line', i, '#'.repeat(60));",
    args: ['--max-output-bytes', '4096'],
  },
  exit: { file: 'exit.ts', source: "console.log('bye');\nprocess.exit(7);" },
  'invalid-output': { file: 'invalid.ts', source: 'return { a: undefined };' },
  python: {
    file: 'cities.py',
    source:
      "import asyncio\nnames = ['Paris', 'Atlantis']\nres = await asyncio.gather(*(tools.lookupCity({'name': n}) for n in names), return_exceptions=True)\nprint('looked up', len(res))\nreturn [r if isinstance(r, dict) else str(r) for r in res]",
  },
  'python-exception': {
    file: 'boom.py',
    source: "print('start')\nvalues = []\ntotal = sum(values) / len(values)\nreturn total",
  },
};

let dir: string;
let chrome: LaunchedChromium;
let server: PageServer;
let page: Page;
const payloads = new Map<string, ResultPayload>();

// Runs the programs a few at a time (two cores, several engineers) and keeps each result as an output payload.
async function runAll(): Promise<void> {
  const names = Object.keys(PROGRAMS);
  const next = async (): Promise<void> => {
    const name = names.shift();
    if (name === undefined) return;
    const program = PROGRAMS[name]!;
    await writeFile(path.join(dir, program.file), program.source);
    const bindings = program.bindings === undefined ? EXAMPLE_BINDINGS : path.join(dir, program.bindings.file);
    if (program.bindings !== undefined) await writeFile(bindings, program.bindings.source);
    const result = JSON.parse(
      await ptcRunJson([path.join(dir, program.file), '--bindings', bindings, ...(program.args ?? [])], dir),
    ) as RunResult;
    const parsed = parseResultPayload({
      result,
      program: program.source,
      language: result.language,
      cellId: `cell-${name}`,
    });
    if (!parsed.ok) throw new Error(`the renderer refuses the runtime's ${name} result:\n${parsed.message}`);
    payloads.set(name, parsed.payload);
    await next();
  };
  await Promise.all([next(), next(), next()]);
}

const payload = (name: string): ResultPayload => payloads.get(name)!;
const pythonMissing = (): boolean => /not available in this build/.test(payload('python').result.error?.message ?? '');

async function show(name: string): Promise<(selector: string) => ReturnType<Page['locator']>> {
  await page.evaluate(([id, text]) => window.harness.renderText(id, text), [
    name,
    JSON.stringify(payload(name)),
  ] as const);
  return (selector) => page.locator(`#${name} ${selector}`);
}

describe.skipIf(!gate.usable)(gate.title('renderer on real runtime results'), () => {
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'ptc-webview-real-'));
    [server, chrome] = (await Promise.all([startPageServer(), launchChromium(), runAll()])) as [
      PageServer,
      LaunchedChromium,
      void,
    ];
    page = await chrome.context.newPage();
    await page.goto(`${server.origin}/page/renderer.html?view=full`);
    await page.waitForSelector('body[data-ready="true"]');
  });

  afterAll(async () => {
    await chrome?.close();
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  test('a success with a failed call: value tree, red bar, footer with the real sandbox report', async () => {
    const $ = await show('cities');
    const result = payload('cities').result;
    expect(await $('.ptc-status').textContent()).toBe('✓Succeeded');
    expect(await $('.ptc-log-entry').allTextContents()).toEqual(['found 2']);
    expect(await $('[data-section="return-value"] .ptc-section-meta').textContent()).toBe('array(3)');
    expect(await $('.ptc-bar').count()).toBe(3);
    expect(await $('.ptc-bar.ptc-bar-failed').count()).toBe(1);
    await $('.ptc-bar.ptc-bar-failed').click();
    expect(await $('.ptc-call-details .ptc-call-message').textContent()).toBe('no such city: Atlantis');
    expect(await $('.ptc-call-details .ptc-call-args .ptc-key').allTextContents()).toEqual(['name']);
    expect(await $('.ptc-enforcement').textContent()).toBe(result.sandbox.enforcement);
    // the mode is said once, in the status line; the footer keeps the sandbox and timing details
    expect(await $('[data-fact="mode"]').textContent()).toBe(result.mode);
    expect(await $('[data-section="footer"]').textContent()).toContain('Sandbox');
  });

  test('concurrent calls land in parallel lanes and stderr output is marked', async () => {
    const $ = await show('parallel');
    expect(await $('.ptc-bar').count()).toBe(12);
    const lanes = await $('.ptc-bar').evaluateAll((els) => new Set(els.map((e) => e.getAttribute('data-lane'))).size);
    expect(lanes).toBeGreaterThan(1);
    expect(await $('.ptc-log-entry.ptc-stderr').count()).toBe(1);
  });

  test('an uncaught binding failure names the call, with a code frame on the awaiting line', async () => {
    const $ = await show('binding');
    expect(await $('.ptc-failure-head').textContent()).toContain(
      'the binding call tools.lookupCity failed and the program did not catch the error',
    );
    expect(await $('.ptc-failing-call').getAttribute('data-call-id')).toBe('2');
    expect(await $('.ptc-failing-call').textContent()).toContain('no such city: Atlantis');
    expect(await $('.ptc-code-frame .ptc-frame-target').getAttribute('data-line')).toBe('3');
  });

  test('an exception shows the headline, a caret under the column and only program frames', async () => {
    const $ = await show('exception');
    const error = payload('exception').result.error!;
    expect(await $('.ptc-failure-message').textContent()).toBe(
      "TypeError: Cannot read properties of null (reading 'name')",
    );
    expect(await $('.ptc-failure-head').textContent()).toContain(
      `the program threw a TypeError at line ${error.location!.line}`,
    );
    const caret = (await $('.ptc-frame-caret').textContent()) ?? '';
    expect(caret.slice(caret.indexOf('│ ') + 2)).toBe(`${' '.repeat(error.location!.column! - 1)}^`);
    expect((await $('.ptc-stack li').allTextContents()).every((t) => t.includes('program.ts'))).toBe(true);
  });

  test.each([
    ['timeout', 'the program ran past its 1500 ms deadline and was stopped'],
    ['exit', 'the process running the program exited with code 7 before it finished'],
    ['output-limit', 'went over the 4096-byte output cap (4.0 KiB)'],
    ['invalid-output', 'at $.a it is undefined'],
  ])('a real %s failure is explained with its numbers, in the card and the text fallback', async (name, words) => {
    const $ = await show(name);
    expect(await $('.ptc-failure-head').textContent()).toContain(words);
    expect(formatResultText(payload(name).result)).toContain(words);
  });

  test('the real output-limit result says where output was cut', async () => {
    const $ = await show('output-limit');
    expect(await $('.ptc-truncated').textContent()).toBe(
      '⚠ Output truncated at 4096 bytes: later output was not captured.',
    );
  });

  test('Python results render with the program frame of the traceback', async (ctx) => {
    if (pythonMissing()) ctx.skip('the Python backend is not in this build yet (ptc run says so)');
    const $ = await show('python');
    expect(payload('python').result.language).toBe('python');
    expect(await $('.ptc-bar').count()).toBe(2);
    expect(await $('.ptc-log-entry').first().textContent()).toBe('looked up 2');
    const $$ = await show('python-exception');
    expect(await $$('.ptc-failure-message').textContent()).toBe('ZeroDivisionError: division by zero');
    expect(await $$('.ptc-code-frame .ptc-frame-target').getAttribute('data-line')).toBe('3');
    expect(await $$('.ptc-failure-head').textContent()).toContain('the program threw a ZeroDivisionError at line 3');
    // CPython 3.11+ marks the failing operator; the caret lands under the `/`
    const caret = (await $$('.ptc-frame-caret').textContent()) ?? '';
    expect(caret.slice(caret.indexOf('│ ') + 2)).toBe(`${' '.repeat('total = sum(values) '.length)}^`);
  });
});
