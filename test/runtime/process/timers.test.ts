// The timers a caller awaits (runtime/process/timers.ts) hold the process open until they are decided, and no longer.
// Each program runs in a real Node process with nothing else in its loop: that is where an unref'd timer lost `ptc`'s
// output (the process ended with exit code 0 while a cgroup's removal waited out a retry), a silent "success".
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const exec = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-timers-'));
const bundle = path.join(dir, 'timers.mjs');

beforeAll(async () => {
  await build({
    entryPoints: [path.join(repo, 'runtime/process/timers.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Runs `body` in an async function the module calls and does not await, as `ptc`'s main.ts runs its command (a
// top-level await left unsettled would exit 13 instead); what it printed, its exit code and how long it lived.
async function program(body: string): Promise<{ stdout: string; code: number; ms: number }> {
  const file = path.join(dir, `p-${Math.random().toString(36).slice(2)}.mjs`);
  fs.writeFileSync(
    file,
    `import { delay, within, settlesWithin } from ${JSON.stringify(bundle)};\nvoid (async () => {\n${body}\n})();\n`,
  );
  const started = performance.now();
  try {
    const { stdout } = await exec(process.execPath, [file], { encoding: 'utf8', timeout: 50_000 });
    return { stdout, code: 0, ms: performance.now() - started };
  } catch (error) {
    const e = error as { code: number; stdout: string };
    return { stdout: e.stdout, code: e.code, ms: performance.now() - started };
  }
}

const never = 'new Promise(() => {})';

describe('awaited timers', () => {
  test("control: an unref'd timer alone in the loop ends the process, exit 0, before the code after it runs", async () => {
    const run = await program(
      "await new Promise((resolve) => setTimeout(resolve, 30).unref());\nconsole.log('after');",
    );
    expect(run).toMatchObject({ stdout: '', code: 0 });
  });

  test('delay holds the process until it has waited', async () => {
    expect(await program("await delay(30);\nconsole.log('after');")).toMatchObject({ stdout: 'after\n', code: 0 });
  });

  test('within and settlesWithin give their fallback when the promise never settles', async () => {
    const run = await program(
      `console.log(await within(${never}, 30, 'fallback'));\nconsole.log(await settlesWithin(${never}, 30));`,
    );
    expect(run).toMatchObject({ stdout: 'fallback\nfalse\n', code: 0 });
  });

  test("a promise that settles first wins, and the bound's timer does not keep the process alive after", async () => {
    const run = await program(
      [
        "console.log(await within(Promise.resolve('value'), 40_000, 'fallback'));",
        "console.log(await settlesWithin(Promise.reject(new Error('no')), 40_000));",
        "console.log(await within(Promise.reject(new Error('thrown')), 40_000, 'fallback').catch((e) => e.message));",
      ].join('\n'),
    );
    expect(run).toMatchObject({ stdout: 'value\ntrue\nthrown\n', code: 0 });
    // far under the 40 s the bounds would have held it
    expect(run.ms).toBeLessThan(20_000);
  });

  test('the runtime makes no awaited timer of its own: they come from process/timers.ts', () => {
    // dispatcher.ts: its drain timer is referenced and cleared when the handlers finish, and the file is also bundled
    // for the browser, which has no node:timers; the */web/ folders are browser code alone
    const allowed = new Set(['runtime/process/timers.ts', 'runtime/bindings/dispatcher.ts']);
    const offenders: string[] = [];
    for (const file of fs.readdirSync(path.join(repo, 'runtime'), { recursive: true, encoding: 'utf8' })) {
      const rel = `runtime/${file}`;
      if (!rel.endsWith('.ts') || allowed.has(rel) || rel.includes('/web/')) continue;
      const text = fs.readFileSync(path.join(repo, rel), 'utf8');
      // a resolve handed to setTimeout, or called from the callback it is given
      const awaited =
        /setTimeout\(\s*(resolve|r)\b/.test(text) || /setTimeout\(\s*\(\)\s*=>\s*(resolve|r)\(/.test(text);
      if (awaited || /new Promise[^;]*setTimeout[^;]*\.unref\(\)/.test(text)) offenders.push(rel);
    }
    expect(offenders).toEqual([]);
  });
});
