import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createRuntime } from '../../../runtime/index.js';
import type { CodeRunRequest, Runtime } from '../../../runtime/api.js';
import { listDescendants } from '../../../runtime/process/launch.js';
import { RunResultSchema, type RunResult } from '../../../runtime/protocol/run-result.js';
import { eventually, settleTo } from '../../helpers/eventually.js';
import { alive, parentPid } from '../../helpers/processes.js';

// Real processes throughout: spares are found the way an operator would, by their command lines under this host.
// Every sandboxed process sees its own fresh tmpfs as /tmp, so a spare is told apart by its host pid.
interface SpareProcess {
  pid: number;
}

function sparesOfThisHost(): SpareProcess[] {
  const found: SpareProcess[] = [];
  for (const pid of listDescendants(process.pid)) {
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!argv.some((a) => a.endsWith('node-child.cjs'))) continue;
    // the interpreter itself, not the wrappers (prlimit, bwrap and its init) whose argv names it too
    if (/(^|\/)(bwrap|prlimit|setpriv|unshare|sh)$/.test(argv[0] ?? '')) continue;
    found.push({ pid });
  }
  return found;
}

// The process this host started for the spare (a wrapper, or the interpreter itself): the pool checks that one.
function hostChildOf(pid: number): number {
  let current = pid;
  for (;;) {
    const ppid = parentPid(current);
    if (ppid === process.pid) return current;
    if (ppid === undefined || ppid <= 1) throw new Error(`process ${pid} is not below this host`);
    current = ppid;
  }
}

// A run's result does not wait for its process to be reaped (engine/fresh-child.ts): its death is awaited.
async function expectGone(pid: number, what: string): Promise<void> {
  expect(await settleTo(() => [pid].filter(alive)), `${what} (pid ${pid}) is still running`).toEqual([]);
}

let runtimes: Runtime[] = [];
// each test disposes its runtimes, so the spares found under this host are the current test's
afterEach(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
  runtimes = [];
});

function runtimeWith(spares: number): Runtime {
  const runtime = createRuntime({ spares });
  runtimes.push(runtime);
  return runtime;
}

// best-effort sandbox: the permission model puts each process's private temp dir on its command line
const base: Omit<CodeRunRequest, 'program'> = { language: 'typescript', sandbox: 'best-effort' };

async function runOn(runtime: Runtime, program: string): Promise<RunResult> {
  const result = await runtime.run(runtime.resolve({ ...base, program }));
  RunResultSchema.parse(result);
  return result;
}

// Everything about its process a program can observe without a clock.
const PROBE = `
const os = await import('node:os');
const fs = await import('node:fs');
const tmp = os.tmpdir();
const norm = (v: string) => v.split(tmp).join('<tmp>');
const stdin = await new Promise((resolve) => {
  let got = '';
  process.stdin.on('data', (c) => (got += c));
  process.stdin.on('end', () => resolve('eof:' + got));
  process.stdin.on('error', (e) => resolve('error:' + e.message));
});
return {
  tmpdirName: /^ptc-run-/.test(tmp.split('/').pop() ?? ''),
  tmpdirEntries: fs.readdirSync(tmp),
  env: Object.keys(process.env),
  argv: process.argv.map(norm),
  execArgv: process.execArgv.map(norm),
  cwd: process.cwd(),
  pid: process.pid,
  ppid: process.ppid,
  title: process.title,
  globals: Object.getOwnPropertyNames(globalThis).sort(),
  loadedModules: ((process as any).moduleLoadList as string[]).slice().sort(),
  resources: process.getActiveResourcesInfo().slice().sort(),
  listeners: ['uncaughtException', 'unhandledRejection', 'exit', 'beforeExit', 'warning'].map((e) => process.listenerCount(e)),
  stackTraceLimit: Error.stackTraceLimit,
  exitCode: process.exitCode ?? null,
  stdin,
};`;

describe('spare processes', () => {
  test('a program cannot tell a spare from a cold start', async () => {
    const cold = runtimeWith(0);
    const warm = runtimeWith(1);
    const coldA = await runOn(cold, PROBE);
    const coldB = await runOn(cold, PROBE);
    expect(coldA.error).toBeUndefined();
    // the probe itself is deterministic across cold starts, so a difference below means something
    expect(coldB.value).toEqual(coldA.value);

    expect(await warm.warm(warm.resolve({ ...base, program: PROBE }))).toBe(true);
    const [spare] = await eventually('a spare process', () =>
      sparesOfThisHost().length > 0 ? sparesOfThisHost() : undefined,
    );
    const fromSpare = await runOn(warm, PROBE);
    expect(fromSpare.error).toBeUndefined();
    // it really ran in the pre-started process: that process goes (an unused spare would stay), a replacement starts
    await expectGone(spare?.pid ?? 0, 'the spare that served the run');
    expect(fromSpare.value).toEqual(coldA.value);
    expect((coldA.value as { tmpdirEntries: string[] }).tmpdirEntries).toEqual([]);
  });

  test('a spare is used once, replaced in the background, and never shows another program its state', async () => {
    const runtime = runtimeWith(1);
    const spec = runtime.resolve({ ...base, program: 'return 0' });
    await runtime.warm(spec);
    const first = await eventually('the first spare', () => sparesOfThisHost()[0]);
    const leaky = await runOn(
      runtime,
      `const os = await import('node:os');
       const fs = await import('node:fs');
       fs.writeFileSync(os.tmpdir() + '/left-behind.txt', 'secret');
       (globalThis as any).leftBehind = 'secret';
       process.env.LEFT_BEHIND = 'secret';
       process.on('exit', () => undefined);
       return os.tmpdir();`,
    );
    expect(leaky.value).toBe('/tmp');
    // the used process, and with it its tmpfs, go
    await expectGone(first.pid, 'the used spare');
    await eventually('the replacement spare', () => sparesOfThisHost().find((s) => s.pid !== first.pid));
    await runtime.warm(spec);
    const clean = await runOn(
      runtime,
      `const os = await import('node:os');
       const fs = await import('node:fs');
       return { tmp: os.tmpdir(), files: fs.readdirSync(os.tmpdir()), global: 'leftBehind' in globalThis, env: process.env.LEFT_BEHIND ?? null, exitListeners: process.listenerCount('exit') };`,
    );
    expect(clean.value).toEqual({ tmp: '/tmp', files: [], global: false, env: null, exitListeners: 0 });
  });

  test('a spare that died while idle is not used: the run starts cold and succeeds', async () => {
    const runtime = runtimeWith(1);
    await runtime.warm(runtime.resolve({ ...base, program: 'return 0' }));
    const doomed = await eventually('a spare', () => sparesOfThisHost()[0]);
    const started = hostChildOf(doomed.pid);
    process.kill(doomed.pid, 'SIGKILL');
    // once the process this host started is reaped (gone from /proc), the pool's liveness check sees the death
    await eventually(
      `the spare's process ${started} (around ${doomed.pid}) to be reaped`,
      () => !fs.existsSync(`/proc/${started}`),
    );
    const result = await runOn(runtime, "const os = await import('node:os'); return os.tmpdir();");
    expect(result.error).toBeUndefined();
    expect(result.value).toBe('/tmp');
  });

  test('dispose kills idle spares and removes their temp dirs', async () => {
    const runtime = createRuntime({ spares: 1 });
    await runtime.warm(runtime.resolve({ ...base, program: 'return 0' }));
    const spare = await eventually('a spare', () => sparesOfThisHost()[0]);
    const tree = [spare.pid, ...listDescendants(spare.pid)];
    await runtime.dispose();
    expect(tree.filter(alive)).toEqual([]);
    expect(sparesOfThisHost()).toEqual([]);
  });

  test('with spares off nothing is pre-started, and other settings start cold', async () => {
    const none = runtimeWith(0);
    expect(await none.warm(none.resolve({ ...base, program: 'return 0' }))).toBe(false);
    expect((await runOn(none, 'return 1')).value).toBe(1);
    expect(sparesOfThisHost()).toEqual([]);

    const runtime = runtimeWith(1);
    await runtime.warm(runtime.resolve({ ...base, program: 'return 0' }));
    const spare = await eventually('a spare', () => sparesOfThisHost()[0]);
    // a different heap limit is a different process: the spare must not serve it, and is retired
    const other = await runtime.run(
      runtime.resolve({ ...base, memoryMb: 256, program: "const os = await import('node:os'); return os.tmpdir();" }),
    );
    expect(other.error).toBeUndefined();
    await expectGone(spare.pid, 'the retired spare');
  });

  test('under bubblewrap a spare started for one folder serves a run in another (the program sees neither)', async () => {
    const runtime = runtimeWith(1);
    const [first, second] = [
      fs.mkdtempSync(path.join(os.tmpdir(), 'spare-a-')),
      fs.mkdtempSync(path.join(os.tmpdir(), 'spare-b-')),
    ];
    try {
      const confined = { language: 'typescript' as const, sandbox: 'required' as const };
      await runtime.warm(runtime.resolve({ ...confined, cwd: first, program: 'return 0' }));
      const spare = await eventually('a spare', () => sparesOfThisHost()[0]);
      const stop = new AbortController();
      let spareServed: boolean | undefined;
      // once the program runs, the spare is still alive only if it is the process running it (a retired one was killed)
      const program = 'console.log(process.cwd()); await new Promise((resolve) => setTimeout(resolve, 600_000));';
      const result = await runtime.run(
        runtime.resolve({
          ...confined,
          cwd: second,
          program,
          signal: stop.signal,
          onLog: () => {
            spareServed = alive(spare.pid);
            stop.abort();
          },
        }),
      );
      expect(result.error?.kind).toBe('abort');
      expect(result.logs).toEqual(['/tmp']);
      expect(spareServed).toBe(true);
      await expectGone(spare.pid, 'the spare that served the aborted run');
    } finally {
      fs.rmSync(first, { recursive: true, force: true });
      fs.rmSync(second, { recursive: true, force: true });
    }
  });

  test('a program that runs while its replacement starts cannot signal it, even told its host pids', async () => {
    const runtime = runtimeWith(1);
    const confined = { language: 'typescript' as const, sandbox: 'required' as const };
    await runtime.warm(runtime.resolve({ ...confined, program: 'return 0' }));
    const first = await eventually('the first spare', () => sparesOfThisHost()[0]);
    // the replacement starts 25 ms into a run (engine/fresh-child.ts); a binding tells the program its host pids and
    // those of its wrappers, as a neighbour that guessed them would know them
    const neighbours = async (): Promise<number[]> => {
      const replacement = await eventually('the replacement', () =>
        sparesOfThisHost().find((s) => s.pid !== first.pid),
      );
      return [replacement.pid, ...listDescendants(hostChildOf(replacement.pid)), hostChildOf(replacement.pid)];
    };
    const result = await runtime.run(
      runtime.resolve({
        ...confined,
        bindings: [{ global: 'tools', functions: { neighbours } }],
        program: `const pids = await tools.neighbours({});
          const refused = [];
          for (const pid of pids) {
            try { process.kill(pid, 'SIGKILL'); } catch (error) { refused.push(error.code); }
          }
          return { tried: pids.length, refused };`,
      }),
    );
    expect(result.error).toBeUndefined();
    const { tried, refused } = result.value as { tried: number; refused: string[] };
    expect(tried).toBeGreaterThan(0);
    // outside its PID namespace those numbers name nothing it can reach
    expect(refused).toEqual(Array.from({ length: tried }, () => 'ESRCH'));
    // the one live spare besides the run's own, awaited: a result does not wait for the reaping, and on a loaded
    // machine a lookup made at once found a process that was gone a moment later; a replacement the program had
    // killed never appears, since nothing starts another until a run asks
    const replacement = await eventually('the replacement, alive after the run', () => {
      const others = sparesOfThisHost().filter((s) => s.pid !== first.pid && alive(s.pid));
      return others.length === 1 ? others[0] : undefined;
    });
    const next = await runtime.run(runtime.resolve({ ...confined, program: 'return 2;' }));
    expect(next.value).toBe(2);
    await expectGone(replacement.pid, 'the replacement that served the next run');
  });

  test('misuse: a bad spare count is rejected when the runtime is created', () => {
    expect(() => createRuntime({ spares: -1 })).toThrow(TypeError);
    expect(() => createRuntime({ spares: 1.5 })).toThrow(/spares/);
  });
});
