import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { SANDBOX_UID_BASE, TASK_LIMIT } from '../../../runtime/sandbox/bwrap.js';
import { findExecutable } from '../../../runtime/sandbox/probe.js';
import { run, toolsNamespace } from '../../helpers/runtime.js';

const exec = promisify(execFile);
const isRoot = process.getuid?.() === 0;
const onLinuxX64 = process.platform === 'linux' && process.arch === 'x64';

// Raw clone() from machine code (x86_64): thread-like tasks with no stack or heap of their own, so neither the
// interpreter nor RLIMIT_AS bounds them; only the task limit does. Tries `want` tasks, then reports how many exist.
// All signals are blocked while cloning, so the tasks inherit a full mask and no signal frame lands on the shared
// stack.
function rawCloneProgram(want: number): string {
  // r9 = count; loop: clone(CLONE_VM|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD, sp=0); child: pause() forever; stop on
  // error
  const code = '4989f9b838000000bf000d010031f631d24531d20f054885c074087805' + '49ffc975e1c3b8220000000f05ebf7';
  return [
    'import ctypes, signal',
    'libc = ctypes.CDLL(None)',
    'libc.mmap.restype = ctypes.c_void_p',
    'libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]',
    // a mapping never unmapped: a task that first runs after the program returned still finds its code
    'page = libc.mmap(None, 4096, 7, 0x22, -1, 0)',
    `ctypes.memmove(page, bytes.fromhex("${code}"), ${code.length / 2})`,
    'f = ctypes.CFUNCTYPE(ctypes.c_long, ctypes.c_long)(page)',
    'mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())',
    `last = f(${want})`,
    'signal.pthread_sigmask(signal.SIG_SETMASK, mask)',
    "tasks = int(open('/proc/self/status').read().split('Threads:')[1].split()[0])",
    "return {'last': last, 'tasks': tasks}",
  ].join('\n');
}

describe.runIf(process.platform === 'linux')('the task limit: one run cannot take the host’s pids', () => {
  test.runIf(onLinuxX64)('raw clone() stops at the limit with EAGAIN, and the run still completes', async () => {
    const r = await run('python', rawCloneProgram(5000), { sandbox: 'required' });
    expect(r.error).toBeUndefined();
    const value = r.value as { last: number; tasks: number };
    // -11: EAGAIN from clone(); the namespace's init is the one more task a user namespace counts
    expect(value.last).toBe(-11);
    expect(value.tasks).toBeLessThanOrEqual(TASK_LIMIT);
    expect(value.tasks).toBeGreaterThan(TASK_LIMIT - 3);
    expect(r.sandbox.mechanisms).toContain(`at most ${TASK_LIMIT} tasks (threads included)`);
  });

  test.runIf(onLinuxX64)(
    'control: with the sandbox off the same program gets far more tasks (the attack is real)',
    async () => {
      const r = await run('python', rawCloneProgram(2 * TASK_LIMIT), { sandbox: 'off' });
      expect(r.error).toBeUndefined();
      expect((r.value as { tasks: number }).tasks).toBeGreaterThan(2 * TASK_LIMIT);
    },
  );

  test('Python threads are refused past the limit as an exception the program can catch', async () => {
    const r = await run(
      'python',
      [
        'import threading',
        'threading.stack_size(65536)',
        'hold = threading.Event()',
        'started = 0',
        'refused = None',
        'try:',
        `    for _ in range(${TASK_LIMIT + 50}):`,
        '        threading.Thread(target=hold.wait, daemon=True).start()',
        '        started += 1',
        'except RuntimeError as e:',
        '    refused = str(e)',
        'hold.set()',
        'return [started, refused]',
      ].join('\n'),
      { sandbox: 'required', memoryMb: 2048 },
    );
    expect(r.error).toBeUndefined();
    const [started, refused] = r.value as [number, string];
    expect(started).toBeLessThan(TASK_LIMIT);
    expect(refused).toMatch(/can't start new thread/);
  });

  test('the limit is per run: a run holding all its tasks leaves another concurrent run its own', async () => {
    let holding: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (holding = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hog = run(
      'python',
      [
        'import threading',
        'threading.stack_size(65536)',
        'hold = threading.Event()',
        'started = 0',
        'try:',
        `    for _ in range(${TASK_LIMIT}):`,
        '        threading.Thread(target=hold.wait, daemon=True).start()',
        '        started += 1',
        'except RuntimeError:',
        '    pass',
        'await tools.hold()',
        'hold.set()',
        'return started',
      ].join('\n'),
      {
        sandbox: 'required',
        memoryMb: 2048,
        bindings: [
          toolsNamespace({
            hold: async () => {
              holding();
              await released;
              return null;
            },
          }),
        ],
      },
    );
    await held;
    try {
      const other = await run(
        'python',
        [
          'import threading',
          'threading.stack_size(65536)',
          'hold = threading.Event()',
          'threads = [threading.Thread(target=hold.wait) for _ in range(100)]',
          'for t in threads: t.start()',
          'hold.set()',
          'for t in threads: t.join()',
          'return len(threads)',
        ].join('\n'),
        { sandbox: 'required' },
      );
      expect(other.error).toBeUndefined();
      expect(other.value).toBe(100);
    } finally {
      release();
    }
    const first = await hog;
    expect(first.error).toBeUndefined();
    expect(first.value).toBeGreaterThan(TASK_LIMIT - 10);
  });

  test.runIf(isRoot)('a root host runs each sandbox under a uid of its own, never root or a shared one', async () => {
    const programs = { python: "return __import__('os').getuid()", typescript: 'return process.getuid();' } as const;
    for (const language of ['python', 'typescript'] as const) {
      // runs of one setting share a planned launch and spares: each must still get a uid of its own
      const results = await Promise.all(
        [1, 2, 3].map(() => run(language, programs[language], { sandbox: 'required' })),
      );
      for (const r of results) {
        expect(r.error).toBeUndefined();
        expect(r.value).toBeGreaterThanOrEqual(SANDBOX_UID_BASE);
      }
      expect(new Set(results.map((r) => r.value)).size).toBe(3);
    }
  });

  // The limit is set inside the sandbox's user namespace: there it counts the run's tasks only, so a user who
  // already has many processes still gets a working sandbox (a limit set outside would count all of them).
  test.runIf(isRoot && onLinuxX64)(
    'an unprivileged host: the limit holds and counts the run’s tasks only',
    async (ctx) => {
      const setpriv = findExecutable('setpriv');
      const uid = String(SANDBOX_UID_BASE - 1000);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-task-limit-'));
      fs.chmodSync(dir, 0o777);
      const file = path.join(dir, 'clone.py');
      fs.writeFileSync(file, rawCloneProgram(5000), { mode: 0o644 });
      // this Node may live where the other user cannot reach it (a cached Node under root's home): a copy it can run
      const node = path.join(dir, 'node');
      fs.copyFileSync(process.execPath, node);
      fs.chmodSync(node, 0o755);
      try {
        expect(setpriv).toBeDefined();
        // the user already has more tasks than the limit: 300 sleeping shells of its own
        const script = `for i in $(seq 300); do sleep 120 >/dev/null 2>&1 & done; ${JSON.stringify(node)} ${JSON.stringify(path.resolve('dist/cli.mjs'))} run ${file} --json --sandbox required; kill $(jobs -p) 2>/dev/null; true`;
        const { stdout } = await exec(
          setpriv ?? 'setpriv',
          [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '/bin/sh', '-c', script],
          {
            env: { PATH: process.env.PATH, HOME: dir, TMPDIR: dir },
            encoding: 'utf8',
            timeout: 120_000,
          },
        );
        const result = JSON.parse(stdout) as {
          value?: { last: number; tasks: number };
          error?: { kind: string };
          sandbox: { mechanisms: string[] };
        };
        // where unprivileged user namespaces are off, bubblewrap cannot start for this user: nothing to check here
        if (result.error?.kind === 'sandbox-unavailable') ctx.skip();
        expect(result.sandbox.mechanisms[0]).toMatch(/user namespaces/);
        expect(result.value?.last).toBe(-11);
        expect(result.value?.tasks).toBeLessThanOrEqual(TASK_LIMIT);
        expect(result.value?.tasks).toBeGreaterThan(TASK_LIMIT - 3);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
