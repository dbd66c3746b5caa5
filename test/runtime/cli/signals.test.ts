// How `ptc` stops on signals, as a real process (issues 28.2, 24.5): SIGINT, SIGTERM and SIGHUP (a closed terminal)
// stop the run, print its result and leave no private dir behind, exiting 130, 143 and 129; a second signal, or a
// stop stuck in I/O for STOP_GRACE_MS, ends the process anyway; a cassette path under /proc fails instead of spinning.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { CLI, scratchDir } from './cli-harness.js';

interface Started {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>;
  // resolves once `test` holds for the output so far; fails naming `what` and the output after a deadline
  until(what: string, test: (output: { stdout: string; stderr: string }) => boolean): Promise<void>;
}

function start(args: string[], env: NodeJS.ProcessEnv = process.env, cwd?: string): Started {
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    ...(cwd === undefined ? {} : { cwd }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
  let signalledAt = 0;
  const kill = child.kill.bind(child);
  child.kill = (signal?: NodeJS.Signals | number) => {
    signalledAt ||= performance.now();
    return kill(signal);
  };
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; afterMs: number }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, afterMs: performance.now() - signalledAt })),
  );
  const until = (what: string, test: (o: typeof output) => boolean): Promise<void> =>
    eventually(what, () => test(output), { timeoutMs: 120_000 }).then(
      () => undefined,
      (error: Error) => {
        throw new Error(`${error.message}; stdout: ${output.stdout.slice(-500)} stderr: ${output.stderr.slice(-500)}`);
      },
    );
  return { child, output, exited, until };
}

const entries = (dir: string): string[] => fs.readdirSync(dir);

describe('ptc on signals', { timeout: 180_000 }, () => {
  const scratch = scratchDir('ptc-signals-');
  const hangTs = scratch.write('hang.ts', 'await new Promise(() => {});');
  const hangPy = scratch.write('hang.py', 'import asyncio\nawait asyncio.sleep(3600)');

  const cases: [NodeJS.Signals, number, string][] = [
    ['SIGHUP', 129, hangTs],
    ['SIGHUP', 129, hangPy],
    ['SIGTERM', 143, hangTs],
    ['SIGINT', 130, hangPy],
  ];
  for (const [signal, code, program] of cases) {
    it(`${signal} during a ${path.extname(program)} run: the abort result, exit ${code}, no private dir left`, async () => {
      const tmp = fs.mkdtempSync(path.join(scratch.dir, 'tmp-'));
      const run = start(['run', program], { ...process.env, TMPDIR: tmp });
      // the program's own child exists once its private dir does (ptc-run-… for Node, ptc-py-… for CPython); the
      // runner's compile dir (ptc-pyc-…) and the sandbox proof's come earlier, while the run is still being prepared
      const childDir = path.extname(program) === '.py' ? 'ptc-py-' : 'ptc-run-';
      const running = (): boolean => entries(tmp).some((e) => e.startsWith(childDir));
      await eventually(`the program's child dir (${childDir}…) in its TMPDIR`, running, { timeoutMs: 120_000 });
      await new Promise((r) => setTimeout(r, 1_000));
      run.child.kill(signal);
      const exit = await run.exited;
      expect(exit.code, run.output.stderr).toBe(code);
      expect(run.output.stdout).toContain(`── failed: abort ──\ninterrupted by ${signal}`);
      expect(entries(tmp)).toEqual([]);
    });
  }

  it('a second SIGINT ends a stop stuck in I/O at once; a lone SIGTERM ends it after the grace period', async () => {
    const dir = fs.mkdtempSync(path.join(scratch.dir, 'fifo-'));
    fs.writeFileSync(
      path.join(dir, 'a.ptcnb'),
      JSON.stringify({
        version: 1,
        cells: [
          {
            kind: 'code',
            language: 'typescript',
            source: 'return 1;',
            metadata: { id: 'one', expect: { value: { match: 'exact', is: 1 } } },
          },
        ],
      }),
    );
    fs.mkdirSync(path.join(dir, '.ptc/cassettes/a'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.ptc/cassettes/a/one.json'), JSON.stringify({ version: 1, calls: [] }));
    const fifo = path.join(dir, 'report.fifo');
    const made = spawn('mkfifo', [fifo]);
    await new Promise((resolve) => made.on('exit', resolve));
    for (const [signals, code, within] of [
      [['SIGINT', 'SIGINT'], 130, 5_000],
      [['SIGTERM'], 143, 20_000],
    ] as const) {
      // nobody opens the FIFO for reading: writing the report blocks in open()
      const run = start(['test', 'a.ptcnb', '--reporter', 'json', '--output', fifo], process.env, dir);
      await run.until("the notebook's progress line", (o) => o.stdout.includes('a.ptcnb'));
      await new Promise((r) => setTimeout(r, 500));
      for (const signal of signals) {
        run.child.kill(signal);
        await new Promise((r) => setTimeout(r, 200));
      }
      const exit = await run.exited;
      // ended by the signal itself: a shell reports 128 + its number
      expect(
        exit.code ?? 128 + (exit.signal === 'SIGINT' ? 2 : exit.signal === 'SIGTERM' ? 15 : 0),
        run.output.stderr,
      ).toBe(code);
      expect(exit.afterMs).toBeLessThan(within);
      expect(run.output.stderr).toMatch(
        signals.length === 2 ? /SIGINT again: stopping now/ : /still stopping 10 s after SIGTERM: stopping now/,
      );
    }
  });

  it('--record under /proc fails with a message instead of spinning forever', async () => {
    const run = start(['run', scratch.write('one.ts', 'return 1;'), '--record', '/proc/x/y.json']);
    const exit = await Promise.race([run.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000))]);
    if (exit === 'hung') run.child.kill('SIGKILL');
    expect(exit).not.toBe('hung');
    expect(run.output.stderr).toMatch(/cannot write \/proc\/x\/y\.json/);
  });
});
