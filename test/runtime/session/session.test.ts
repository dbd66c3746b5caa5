import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  createSession,
  RunResultSchema,
  type CallEvent,
  type LogEntry,
  type PlanOverride,
  type Session,
  type SessionOutcome,
} from '../../../runtime/index.js';
import { resolvePlan } from '../../../runtime/session/plan.js';
import { sharedRuntime } from '../../helpers/runtime.js';

// A counter that lives in the loaded module: a replayed call never reaches it, a handler call does.
const BINDINGS = `let served = 0;
export default {
  tools: {
    functions: {
      next: {
        input: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
        mock: async ({ label }) => ({ label, served: ++served, mode: 'mock' }),
        live: async ({ label }) => ({ label, served: ++served, mode: 'live' }),
      },
    },
  },
};
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-cell-runner-'));
const bindingsPath = path.join(dir, 'nb.bindings.mjs');
fs.writeFileSync(bindingsPath, BINDINGS);
// one session per bindings module, as one per notebook
const sessions = new Map<string, Session>();
function sessionFor(file: string | undefined): Session {
  let session = sessions.get(file ?? '');
  if (session === undefined) {
    session = createSession({ runtimeFor: sharedRuntime, ...(file === undefined ? {} : { bindingsPath: file }) });
    sessions.set(file ?? '', session);
  }
  return session;
}
afterAll(async () => {
  await Promise.all([...sessions.values()].map((s) => s.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function runCell(
  program: string,
  options: {
    override?: PlanOverride;
    cellId?: string;
    bindings?: string | null;
    onLog?: (e: LogEntry) => void;
    onCall?: (e: CallEvent) => void;
  } = {},
): Promise<SessionOutcome> {
  const plan = resolvePlan({
    notebook: { mode: 'mock' },
    cell: { id: options.cellId ?? 'cell-a' },
    cellIndex: 0,
    notebookDir: dir,
    notebookFile: 'cells.ptcnb',
    ...(options.override === undefined ? {} : { override: options.override }),
  });
  const outcome = await sessionFor(options.bindings === null ? undefined : (options.bindings ?? bindingsPath)).run({
    language: 'typescript',
    program,
    plan,
    limits: { timeoutMs: 30_000 },
    cwd: dir,
    ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
    ...(options.onCall === undefined ? {} : { onCall: options.onCall }),
  });
  if (outcome.kind === 'result') RunResultSchema.parse(outcome.result);
  return outcome;
}

function resultOf(outcome: SessionOutcome) {
  if (outcome.kind !== 'result') throw new Error(`expected a result, got ${outcome.stage}: ${outcome.message}`);
  return outcome.result;
}

const PROGRAM = "const a = await tools.next({ label: 'a' });\nconsole.log('got', a.served);\nreturn a;";

describe('a session (the one run path of ptc run, ptc notebook and the extension)', () => {
  test("runs a cell with the notebook mode's handlers, streaming logs and reporting each call", async () => {
    const logs: LogEntry[] = [];
    const calls: CallEvent[] = [];
    const result = resultOf(
      await runCell(PROGRAM, { cellId: 'plain', onLog: (e) => logs.push(e), onCall: (e) => calls.push(e) }),
    );
    expect(result.error).toBeUndefined();
    expect(result.mode).toBe('mock');
    expect(result.value).toMatchObject({ label: 'a', mode: 'mock' });
    expect(logs.map((l) => l.text)).toEqual([`got ${(result.value as { served: number }).served}`]);
    expect(calls).toMatchObject([{ global: 'tools', name: 'next', ok: true }]);
  });

  test('records a cell to .ptc/cassettes/<notebook>/<cell id>.json and replays it without calling any handler', async () => {
    const recorded = await runCell(PROGRAM, { cellId: 'rec', override: { mode: 'live', force: { mode: 'record' } } });
    const cassettePath = path.join(dir, '.ptc', 'cassettes', 'cells', 'rec.json');
    expect(recorded.kind === 'result' && recorded.cassette).toEqual({ ok: true, path: cassettePath, calls: 1 });
    const recordedValue = resultOf(recorded).value as { served: number; mode: string };
    // a forced recording serves calls with the notebook's (here: overridden) handlers
    expect(recordedValue.mode).toBe('live');
    expect(resultOf(recorded).mode).toBe('live');

    const observed: CallEvent[] = [];
    // observing calls (as the extension always does) must not hide that they were replayed
    const replayed = resultOf(
      await runCell(PROGRAM, {
        cellId: 'rec',
        override: { force: { mode: 'replay' } },
        onCall: (e) => observed.push(e),
      }),
    );
    expect(observed).toHaveLength(1);
    expect(replayed.mode).toBe('replay');
    expect(replayed.replay).toMatchObject({ matched: 1, diverged: [], unused: 0 });
    expect(replayed.value).toEqual(recordedValue);
    expect(replayed.calls.every((c) => c.replayed === true)).toBe(true);

    // a handler call afterwards sees the counter untouched by the replay
    const after = resultOf(await runCell(PROGRAM, { cellId: 'other' })).value as { served: number };
    expect(after.served).toBeGreaterThan(recordedValue.served);
  });

  test('a replay whose calls differ from the cassette reports the divergence', async () => {
    await runCell(PROGRAM, { cellId: 'div', override: { force: { mode: 'record' } } });
    const replayed = resultOf(
      await runCell("try { await tools.next({ label: 'b' }); } catch (e) { console.log('diverged'); }\nreturn 1;", {
        cellId: 'div',
        override: { force: { mode: 'replay' } },
      }),
    );
    expect(replayed.replay?.diverged).toEqual([{ global: 'tools', name: 'next', args: { label: 'b' } }]);
    expect(replayed.replay?.unused).toBe(1);
  });

  test('replaying a cell that was never recorded says to record it first', async () => {
    const outcome = await runCell(PROGRAM, { cellId: 'never', override: { force: { mode: 'replay' } } });
    expect(outcome).toMatchObject({ kind: 'setup-failed', stage: 'cassette' });
    expect(outcome.kind === 'setup-failed' && outcome.message).toMatch(
      /no cassette for this cell at .*never\.json: record the cell first/,
    );
  });

  test('a cell that calls no binding replays without a cassette, and writes none', async () => {
    const replayed = resultOf(
      await runCell("console.log('no tools');\nreturn 7;", {
        cellId: 'nocalls',
        override: { force: { mode: 'replay' } },
      }),
    );
    expect(replayed).toMatchObject({ value: 7, mode: 'replay', replay: { matched: 0, diverged: [], unused: 0 } });
    expect(replayed.error).toBeUndefined();
    expect(fs.existsSync(path.join(dir, '.ptc', 'cassettes', 'nocalls.json'))).toBe(false);
  });

  test('a never-recorded cell that catches its failed call still fails its setup: the run stands for nothing', async () => {
    const outcome = await runCell("try { await tools.next({ label: 'a' }); } catch { }\nreturn 1;", {
      cellId: 'caught',
      override: { force: { mode: 'replay' } },
    });
    expect(outcome).toMatchObject({ kind: 'setup-failed', stage: 'cassette' });
    expect(outcome.kind === 'setup-failed' && outcome.message).toMatch(/no cassette for this cell at .*caught\.json/);
  });

  test('a broken bindings module is a setup failure naming the file and the problem, not a crash', async () => {
    const broken = path.join(dir, 'broken.bindings.ts');
    fs.writeFileSync(broken, 'export default { tools: { functions: { x: ( } } };\n');
    const outcome = await runCell(PROGRAM, { bindings: broken });
    expect(outcome).toMatchObject({ kind: 'setup-failed', stage: 'bindings' });
    expect(outcome.kind === 'setup-failed' && outcome.message).toContain('broken.bindings.ts:1:');
    const missing = await runCell(PROGRAM, { bindings: path.join(dir, 'missing.bindings.ts') });
    expect(missing.kind === 'setup-failed' && missing.message).toMatch(
      /bindings module not found: .*missing\.bindings\.ts/,
    );
  });

  test('a cancelled recording writes no cassette and says why', async () => {
    const controller = new AbortController();
    const plan = resolvePlan({
      notebook: undefined,
      cell: { id: 'cancelled' },
      cellIndex: 0,
      notebookDir: dir,
      notebookFile: 'cells.ptcnb',
      override: { force: { mode: 'record' } },
    });
    const outcome = await sessionFor(bindingsPath).run({
      language: 'typescript',
      program: "console.log('waiting');\nawait new Promise(() => {});",
      plan,
      limits: { timeoutMs: 60_000 },
      cwd: dir,
      signal: controller.signal,
      onLog: () => controller.abort(new Error('stop')),
    });
    expect(resultOf(outcome).error?.kind).toBe('abort');
    expect(outcome.kind === 'result' && outcome.cassette).toMatchObject({
      ok: false,
      message: 'the run was cancelled, so the cassette was not written',
    });
    expect(fs.existsSync(path.join(dir, '.ptc', 'cassettes', 'cancelled.json'))).toBe(false);
  });
});
