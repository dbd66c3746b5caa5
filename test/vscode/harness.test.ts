// The real-VS-Code harness's own logic, tested without VS Code: the VSIX allow-list, the runner's report parsing,
// suite discovery, and the process-group handling that guarantees nothing it starts outlives it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Outcome = { passed: string[]; failed: { title: string; error: string }[]; pending: string[] };
interface Harness {
  disallowedReason(file: string): string | undefined;
  parseReportLines(text: string): { event: string; title?: string }[];
  summarize(events: unknown[]): Outcome;
  collectOutcome(bundle: { dir: string }, streamed: string): Promise<Outcome>;
  listSuites(filter?: string): Promise<{ trusted: string[]; untrusted: string[] }>;
  run(command: string, args: string[], options?: { timeoutMs?: number }): Promise<{ stdout: string }>;
  stopGroup(pid: number, graceMs?: number): Promise<void>;
  groupAlive(pid: number): boolean;
  findLeakedProcesses(tmp: string): Promise<{ pid: number; cmdline: string }[]>;
}

const dir = path.resolve(import.meta.dirname, '../../scripts/vscode-e2e');
// the harness is plain .mjs (it must run before anything is built); import it by URL
async function load(): Promise<Harness> {
  const parts = await Promise.all(
    ['vsix-contents', 'exthost-suite', 'bundle-tests', 'exec', 'processes', 'leaks'].map(
      (m) => import(pathToFileURL(path.join(dir, `${m}.mjs`)).href),
    ),
  );
  return Object.assign({}, ...parts) as Harness;
}

let h: Harness;
let tmp: string;
beforeAll(async () => {
  h = await load();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'ptc-harness-test-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('VSIX allow-list', () => {
  it('ships the bundles, the Python runner and the root metadata only', () => {
    for (const ok of [
      'dist/extension.cjs',
      'dist/runtime/node-child.cjs',
      'dist/webview/renderer.js',
      'dist/node_modules/esbuild-wasm/lib/main.js',
      'dist/node_modules/esbuild-wasm/esbuild.wasm',
      'python/ptc_runner.py',
      'dist/web-extension.cjs',
      'package.json',
      'README.md',
      'LICENSE',
      'icon.png',
      'CHANGELOG.md',
      // Open Tour and Try the Offline Fake Model copy these out of the extension's folder
      'examples/tour.ptcnb',
      'examples/models/fake-model-server.mjs',
    ]) {
      expect(h.disallowedReason(ok), ok).toBeUndefined();
    }
    // README.md's relative links resolve inside the VSIX (no repository URL to rewrite them to): what it links ships
    expect(h.disallowedReason('docs/testing.md')).toBeUndefined();
    for (const linked of [
      'cell',
      'argument-shape',
      'walkthrough',
      'debug-paused',
      'debug-approval',
      'debug-fork-diff',
      'open-tour',
    ])
      expect(h.disallowedReason(`docs/screenshots/vscode-${linked}-light.png`), linked).toBeUndefined();
    // the docs' other screenshots (dark twins, the bindings, budget, sandbox and task-cell screens) stay out of the
    // VSIX
    for (const unlinked of [
      'argument-shape-dark',
      'call-budget-light',
      'sandbox-partial-light',
      'bindings-error-light',
      'bindings-error-dark',
      'task-no-model-light',
      'debug-paused-dark',
      'debug-approval-dark',
      'debug-fork-diff-dark',
      'open-tour-dark',
    ])
      expect(h.disallowedReason(`docs/screenshots/vscode-${unlinked}.png`), unlinked).toMatch(/outside the allow-list/);
    expect(h.disallowedReason('docs/screenshots/vscode-tour-dark.png')).toMatch(/outside the allow-list/);
    expect(h.disallowedReason('dist/extension.cjs.map')).toMatch(/source map/);
    expect(h.disallowedReason('dist/cli.mjs')).toMatch(/does not load/);
    expect(h.disallowedReason('dist/bench/runtime.mjs')).toMatch(/does not load/);
    expect(h.disallowedReason('python/__pycache__/ptc_wire.cpython-311.pyc')).toMatch(/not a Python source/);
    // the VSIX is universal: no per-platform esbuild binary, no native addon, even under dist/node_modules
    expect(h.disallowedReason('dist/node_modules/@esbuild/linux-x64/bin/esbuild')).toMatch(
      /per-platform native binary/,
    );
    expect(h.disallowedReason('dist/node_modules/some-addon/build/Release/addon.node')).toMatch(/native Node addon/);
    for (const bad of [
      'extension/extension.ts',
      'node_modules/zod/index.js',
      'test/vscode/tour.vscode.test.ts',
      '.cache/vscode-e2e/x',
      'examples/mcp/weather.ptcnb',
    ]) {
      expect(h.disallowedReason(bad), bad).toMatch(/outside the allow-list/);
    }
  });
});

describe('extension-host report', () => {
  const lines = [
    'noise before',
    '[ptc-e2e] {"event":"start","pass":"trusted","total":3}',
    'rpc [ptc-e2e] {"event":"pass","title":"a works","durationMs":5}',
    '[ptc-e2e] {"event":"fail","title":"b works","durationMs":7,"error":"AssertionError: nope"}',
    '[ptc-e2e] {"event":"pend',
    '[ptc-e2e] {"event":"pending","title":"c later"}',
  ];

  it('parses event lines out of console noise and skips cut-off lines', () => {
    expect(h.parseReportLines(lines.join('\n')).map((e) => e.event)).toEqual(['start', 'pass', 'fail', 'pending']);
    expect(h.summarize(h.parseReportLines(lines.join('\n')))).toEqual({
      passed: ['a works'],
      failed: [{ title: 'b works', error: 'AssertionError: nope' }],
      pending: ['c later'],
    });
  });

  it('counts a run that never reported its end as a failure', async () => {
    const outcome = await h.collectOutcome({ dir: tmp }, lines.join('\n'));
    expect(outcome.passed).toEqual(['a works']);
    expect(outcome.failed.map((f) => f.title)).toEqual(['b works', 'extension-host run']);
  });

  it('prefers results.json when the runner wrote it', async () => {
    const bundleDir = await mkdtemp(path.join(tmp, 'bundle-'));
    await writeFile(
      path.join(bundleDir, 'results.json'),
      JSON.stringify([
        { event: 'pass', title: 'from file' },
        { event: 'end', passed: 1, failed: 0, pending: 0 },
      ]),
    );
    expect(await h.collectOutcome({ dir: bundleDir }, '')).toEqual({ passed: ['from file'], failed: [], pending: [] });
  });
});

describe('suite discovery', () => {
  it('splits the suites into a trusted and a Restricted Mode pass', async () => {
    const { trusted, untrusted } = await h.listSuites();
    expect(trusted).toEqual(
      expect.arrayContaining(['tour.vscode.test.ts', 'execution.vscode.test.ts', 'files.vscode.test.ts']),
    );
    expect(untrusted).toEqual(['restricted.untrusted.vscode.test.ts']);
    expect((await h.listSuites('tour')).trusted).toEqual(['tour.vscode.test.ts']);
  });
});

describe('process groups', () => {
  it('run() names the command and its exit status on failure', async () => {
    await expect(h.run(process.execPath, ['-e', 'console.error("went wrong"); process.exit(3)'])).rejects.toThrow(
      /exit code 3[\s\S]*went wrong/,
    );
  });

  it('a timed-out command is killed with everything it forked', async () => {
    const marker = path.join(tmp, 'timeout-marker');
    const script = `require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', ${JSON.stringify(marker)}], { stdio: 'ignore' }); setInterval(() => {}, 1000);`;
    await expect(h.run(process.execPath, ['-e', script], { timeoutMs: 1500 })).rejects.toThrow(/signal SIGKILL/);
    // the grandchild carried the marker in its argv; it must be gone with its group
    await expect.poll(async () => (await h.findLeakedProcesses(marker)).length, { timeout: 10_000 }).toBe(0);
  });

  it('stopGroup() stops a detached group including grandchildren, and leak detection sees them before', async () => {
    const marker = path.join(tmp, 'group-marker');
    const script = `require('child_process').spawn(process.execPath, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { ...process.env, PTC_MARK: ${JSON.stringify(marker)} } }); setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ['-e', script], {
      detached: true,
      stdio: 'ignore',
      env: { ...process.env, PTC_MARK: marker },
    });
    const pid = child.pid!;
    await expect.poll(async () => (await h.findLeakedProcesses(marker)).length, { timeout: 10_000 }).toBe(2);
    expect(h.groupAlive(pid)).toBe(true);
    // the grandchild ignores SIGTERM, so this also proves the SIGKILL follow-up
    await h.stopGroup(pid, 500);
    expect(h.groupAlive(pid)).toBe(false);
    expect(await h.findLeakedProcesses(marker)).toEqual([]);
  });
});
