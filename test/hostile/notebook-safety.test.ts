import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  runCellJob,
  type CellExecutionPort,
  type CellJobInput,
  type CellJobOutcome,
} from '../../extension/execution/cell-job.js';
import { KeyedSerialQueue } from '../../extension/execution/queue.js';
import type { Runtime } from '../../runtime/api.js';
import {
  createRuntime,
  createSession,
  parseNotebook,
  runNotebookFile,
  type Session,
  type SessionOutcome,
} from '../../runtime/index.js';
import * as fake from '../extension/helpers/fake-vscode.js';
import { recordingLogger } from '../extension/helpers/recording-logger.js';
import { eventually } from '../helpers/eventually.js';
import { rngFrom } from './lib/fuzz-frames.js';
import { emptyReport, LeakChecker } from './lib/leaks.js';

vi.mock('vscode', () => import('../extension/helpers/fake-vscode.js'));
const { PtcNotebookSerializer, UnreadableNotebookError } = await import('../../extension/notebook/serializer.js');

const canonical = fs.readFileSync(new URL('../runtime/notebook/fixtures/canonical.ptcnb', import.meta.url));
const serializer = (): InstanceType<typeof PtcNotebookSerializer> =>
  new PtcNotebookSerializer({ log: recordingLogger().logger, saveOutputs: () => true });
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const sha = (file: string): string => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('notebook safety: an unreadable .ptcnb is never replaced on save', () => {
  // VS Code only saves a notebook it opened: refusing to deserialize is what keeps the bytes on disk
  const refuses = (bytes: Uint8Array): boolean => {
    try {
      serializer().deserializeNotebook(bytes);
      return false;
    } catch (error) {
      if (!(error instanceof UnreadableNotebookError))
        throw new Error(`refused with the wrong error type: ${String(error)}`, { cause: error });
      return true;
    }
  };

  test('every truncation of a real notebook is refused unless only trailing whitespace was cut (never a partial notebook)', () => {
    const whole = parseNotebook(canonical.toString('utf8'));
    const offsets = new Set<number>();
    for (let at = 1; at < canonical.length; at += Math.max(1, Math.floor(canonical.length / 150))) offsets.add(at);
    for (let at = canonical.length - 4; at < canonical.length; at++) offsets.add(at);
    const partial = [...offsets].filter((at) => {
      const cut = canonical.subarray(0, at);
      return !refuses(cut) && JSON.stringify(parseNotebook(cut.toString('utf8'))) !== JSON.stringify(whole);
    });
    expect(partial).toEqual([]);
  });

  test.each([
    [
      'a future format version',
      '{"version": 2, "cells": [{"kind": "code", "language": "typescript", "source": "return 1", "futureField": {"x": 1}}]}',
    ],
    ['a far-future version with unknown cell kinds', '{"version": 99, "cells": [{"kind": "hologram"}]}'],
    ['a non-integer version', '{"version": 1.5, "cells": []}'],
    ['a missing version', '{"cells": []}'],
    ['binary garbage', '\u0000\u0001PK\u0003\u0004'],
    ['an array at the root', '[1, 2, 3]'],
    ['duplicate keys', '{"version": 1, "version": 1, "cells": []}'],
  ])('%s is refused', (_name, text) => {
    expect(refuses(encode(text))).toBe(true);
  });

  test('300 random byte mutations are either refused or open without losing anything (save → reopen gives the same notebook)', () => {
    const rng = rngFrom(9);
    let refused = 0;
    let opened = 0;
    for (let i = 0; i < 300; i++) {
      const bytes = Uint8Array.from(canonical);
      for (let k = 1 + Math.floor(rng() * 3); k > 0; k--)
        bytes[Math.floor(rng() * bytes.length)] = Math.floor(rng() * 256);
      if (refuses(bytes)) {
        refused++;
        continue;
      }
      opened++;
      const s = serializer();
      const data = s.deserializeNotebook(bytes) as unknown as fake.NotebookData;
      const saved = new TextDecoder().decode(s.serializeNotebook(fake.throughVsCode(data) as never));
      const before = parseNotebook(new TextDecoder().decode(bytes));
      const after = parseNotebook(saved);
      expect(after.ok && before.ok ? after.notebook : after).toEqual(before.ok ? before.notebook : before);
    }
    expect(refused).toBeGreaterThan(0);
    console.log(`[notebook safety] mutations: ${refused} refused, ${opened} opened and round-tripped`);
  });

  test('`ptc notebook` (runNotebookFile) refuses corrupt, truncated and future-version files and leaves their bytes alone', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-nb-safety-'));
    const runtime = createRuntime({ spares: 0 });
    try {
      const files: Record<string, string | Uint8Array> = {
        'corrupt.ptcnb': '{"version": 1, "cells": [',
        'truncated.ptcnb': canonical.subarray(0, Math.floor(canonical.length / 2)),
        'future.ptcnb': '{"version": 3, "cells": [{"kind": "code", "language": "typescript", "source": "return 1"}]}',
      };
      for (const [name, content] of Object.entries(files)) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, content);
        const before = { sha: sha(file), mtime: fs.statSync(file).mtimeMs };
        const run = await runNotebookFile({
          notebookPath: file,
          session: { runtimeFor: () => runtime },
        });
        expect(run).toMatchObject({ ok: false, stage: 'parse' });
        expect({ sha: sha(file), mtime: fs.statSync(file).mtimeMs }).toEqual(before);
      }
    } finally {
      await runtime.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Bindings modules that fail in every way a user's module can; each case runs a real program against it.
const MODULES: Record<string, string> = {
  'throws-at-import.mjs': "throw new Error('bindings module exploded at import');\n",
  'syntax-error.mjs': 'export default { tools: { functions: { add: async ({ a, b }) => a + } } };\n',
  'no-default.mjs': 'export const tools = {};\n',
  'rejects-at-import.mjs': "await Promise.reject(new Error('top-level await rejected'));\nexport default {};\n",
  'hangs-at-import.mjs': 'await new Promise(() => {});\nexport default {};\n',
  'hostile-handlers.mjs': `export default {
  tools: {
    errorClass: { name: 'ToolCallError', memberNameProperty: 'toolName' },
    functions: {
      typeError: async () => null.x,
      hostileThrow: async () => { throw { toString() { throw new Error('toString exploded'); } }; },
      nan: async () => Number.NaN,
      cyclic: async () => { const a = {}; a.self = a; return a; },
      getterTrap: async () => ({ get boom() { throw new Error('getter'); } }),
      syncThrow: () => { throw new Error('sync throw, not even a promise'); },
      notAPromise: () => 42,
      hang: () => new Promise(() => {}),
    },
  },
};
`,
};

describe('notebook safety: a crashing bindings module or a hanging handler never takes the host down', () => {
  let dir: string;
  let runtime: Runtime;
  // one session per module, as a notebook naming it would have
  const sessions = new Map<string, Session>();
  const sessionFor = (module: string | undefined): Session => {
    const key = module ?? '';
    let session = sessions.get(key);
    if (session === undefined) {
      session = createSession({
        runtimeFor: () => runtime,
        ...(module === undefined ? {} : { bindingsPath: path.join(dir, module) }),
      });
      sessions.set(key, session);
    }
    return session;
  };

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-nb-bindings-'));
    for (const [name, text] of Object.entries(MODULES)) fs.writeFileSync(path.join(dir, name), text);
    runtime = createRuntime({ spares: 0 });
  });
  afterAll(async () => {
    await Promise.all([...sessions.values()].map((s) => s.dispose()));
    await runtime.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const runCell = (module: string, program: string, timeoutMs = 5_000): Promise<SessionOutcome> =>
    sessionFor(module).run({
      language: 'typescript',
      program,
      plan: { mode: 'mock' },
      limits: { timeoutMs },
      cwd: dir,
    });

  test.each(['throws-at-import.mjs', 'syntax-error.mjs', 'no-default.mjs', 'rejects-at-import.mjs'])(
    '%s: the cell reports a bindings problem, the next cell still runs',
    async (module) => {
      const outcome = await runCell(module, 'return 1');
      expect(outcome).toMatchObject({ kind: 'setup-failed', stage: 'bindings' });
      expect((outcome as { message: string }).message.length).toBeGreaterThan(0);
      const next = await sessionFor(undefined).run({
        language: 'typescript',
        program: 'return 2',
        plan: { mode: 'mock' },
        limits: {},
        cwd: dir,
      });
      expect(next).toMatchObject({ kind: 'result', result: { value: 2 } });
    },
  );

  test('hostile handlers (throws, hostile thrown values, NaN, cycles, getters, sync throws, non-promises) all reach the program as typed failures', async () => {
    const names = ['typeError', 'hostileThrow', 'nan', 'cyclic', 'getterTrap', 'syncThrow', 'notAPromise'];
    const program = `const out: unknown[] = [];
for (const name of ${JSON.stringify(names)}) {
  try { out.push([name, 'ok', await (tools as any)[name]({})]); } catch (e) { out.push([name, (e as Error).name, (e as any).toolName]); }
}
return out;`;
    const outcome = await runCell('hostile-handlers.mjs', program);
    expect(outcome.kind).toBe('result');
    const result = (outcome as { result: { value?: unknown; error?: unknown } }).result;
    expect(result.error).toBeUndefined();
    const rows = result.value as [string, string, unknown][];
    for (const [name, status, third] of rows) {
      // a non-promise 42 may legitimately be accepted as the value; everything else fails typed
      if (name === 'notAPromise' && status === 'ok') expect(third).toBe(42);
      else expect([name, status, third]).toEqual([name, 'ToolCallError', name]);
    }
  });

  test('a module whose import never finishes fails the cell at its deadline, and cancelling such a cell ends it at once', async () => {
    const started = performance.now();
    const timedOut = await runCell('hangs-at-import.mjs', 'return 1', 1_500);
    expect(timedOut).toMatchObject({ kind: 'setup-failed', stage: 'bindings' });
    expect((timedOut as { message: string }).message).toMatch(/did not finish loading within 1500 ms/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 300);
    const cancelled = await sessionFor('hangs-at-import.mjs').run({
      language: 'typescript',
      program: 'return 1',
      plan: { mode: 'mock' },
      limits: { timeoutMs: 60_000 },
      cwd: dir,
      signal: controller.signal,
    });
    expect(cancelled).toMatchObject({
      kind: 'setup-failed',
      stage: 'bindings',
      message: 'cancelled while the bindings module was loading',
    });
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  test('a handler that never settles ends at the cell deadline as timeout, and the host keeps serving cells', async () => {
    const started = performance.now();
    const outcome = await runCell('hostile-handlers.mjs', 'await tools.hang({}); return 1;', 1_500);
    expect(outcome).toMatchObject({ kind: 'result', result: { error: { kind: 'timeout' } } });
    expect(performance.now() - started).toBeLessThan(15_000);
    const next = await runCell('hostile-handlers.mjs', 'return 3;');
    expect(next).toMatchObject({ kind: 'result', result: { value: 3 } });
  });
});

describe('notebook safety: cancelling 50 queued cells leaves nothing running', () => {
  test('50 cells queued on one notebook, all cancelled while the first runs: every cell ends once, no process survives', async () => {
    const savedTmpdir = process.env.TMPDIR;
    const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-cancel-tmp-'));
    process.env.TMPDIR = tmpRoot;
    const runtime = createRuntime({ spares: 0 });
    try {
      await runtime.run(runtime.resolve({ language: 'typescript', program: 'return 1' }));
      const checker = new LeakChecker(tmpRoot);
      const session = createSession({ runtimeFor: () => runtime });
      const { logger } = recordingLogger();
      const queue = new KeyedSerialQueue<string>((error) => logger.error('job failed', error));
      const listeners: (() => void)[] = [];
      let cancelled = false;
      let order = 0;
      const ends: (boolean | undefined)[][] = Array.from({ length: 50 }, () => []);
      const started: number[] = [];
      // cells whose program wrote its first line: the program is in its loop
      const looping = new Set<number>();
      const outcomes: Promise<CellJobOutcome>[] = [];
      const jobs: Promise<void>[] = [];
      for (let i = 0; i < 50; i++) {
        const port: CellExecutionPort = {
          token: {
            get isCancellationRequested() {
              return cancelled;
            },
            onCancellationRequested: (listener) => {
              listeners.push(listener);
              return { dispose: () => undefined };
            },
          },
          setExecutionOrder: () => undefined,
          start: () => started.push(i),
          clearOutput: async () => undefined,
          appendLog: async () => void looping.add(i),
          showResult: async () => undefined,
          showProblem: async () => undefined,
          end: (success) => ends[i]?.push(success),
        };
        const input: CellJobInput = {
          languageId: i % 2 === 0 ? 'typescript' : 'python',
          program:
            i % 2 === 0
              ? "console.log('looping');\nwhile (true) {}"
              : "print('looping', flush=True)\nwhile True:\n    pass",
          cellIndex: i,
          cellLabel: `cell ${i + 1}`,
          cellMetadata: undefined,
          notebookMetadata: undefined,
          notebookDir: tmpRoot,
          notebookFile: path.join(tmpRoot, 'safety.ptcnb'),
          cwd: tmpRoot,
          bindingsPath: undefined,
          defaultMode: 'mock',
          limits: { timeoutMs: 60_000 },
          trusted: true,
        };
        outcomes.push(
          new Promise((resolve) => {
            jobs.push(
              queue.run('notebook', async () => {
                resolve(
                  await runCellJob(port, input, {
                    run: (request) => session.run(request),
                    approveRuntimePaths: async () => ({ ok: true, paths: {} }),
                    nextExecutionOrder: () => ++order,
                    log: logger,
                    t: (m) => m,
                  }),
                );
              }),
            );
          }),
        );
      }
      // the first cell is running (a hot loop) when the user cancels everything
      await eventually('the first cell to run its hot loop', () => looping.has(0));
      const cancelledAt = performance.now();
      cancelled = true;
      for (const listener of listeners) listener();
      const results = await Promise.all(outcomes);
      await Promise.all(jobs);
      const settleMs = performance.now() - cancelledAt;
      expect(results[0]).toBe('aborted');
      expect(results.slice(1).every((r) => r === 'cancelled')).toBe(true);
      // each execution ended exactly once, with neither ✓ nor ✗
      expect(ends.every((e) => e.length === 1 && e[0] === undefined)).toBe(true);
      expect(started).toEqual([0]);
      expect(queue.pending('notebook')).toBe(0);
      expect(settleMs).toBeLessThan(15_000);
      const leaks = await checker.check();
      if (!emptyReport(leaks)) checker.reap();
      expect(leaks).toEqual({ processes: [], extraFds: [], tempDirs: [] });
    } finally {
      await runtime.dispose();
      if (savedTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmpdir;
      fs.rmSync(tmpRoot, { recursive: true, force: true });
    }
  });
});
