import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  type CellExecutionPort,
  type CellJobDeps,
  type CellJobInput,
  runCellJob,
} from '../../../extension/execution/cell-job.js';
import { RuntimePool } from '../../../extension/execution/runtime-pool.js';
import { untranslated } from '../../../extension/l10n.js';
import { createRuntime, createSession, type Session } from '../../../runtime/index.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { settleTo } from '../../helpers/eventually.js';
import { recordingLogger } from '../helpers/recording-logger.js';

type PortEvent =
  | { type: 'order'; order: number | undefined }
  | { type: 'start' }
  | { type: 'clear' }
  | { type: 'log'; text: string; stream: string }
  | { type: 'result'; result: RunResult }
  | { type: 'problem'; message: string; persist: boolean; actions?: string[] }
  | { type: 'end'; success: boolean | undefined };

// A CancellationToken with a cancel button, like the cell's stop button.
class Token {
  isCancellationRequested = false;
  readonly #listeners = new Set<() => void>();
  onCancellationRequested(listener: () => void): { dispose(): void } {
    this.#listeners.add(listener);
    return { dispose: () => this.#listeners.delete(listener) };
  }
  cancel(): void {
    this.isCancellationRequested = true;
    for (const listener of this.#listeners) listener();
  }
}

// The port a NotebookCellExecution would be, writing every call into an event list.
function recordingPort(onEvent: (event: PortEvent, token: Token) => void = () => undefined): {
  port: CellExecutionPort;
  events: PortEvent[];
  token: Token;
} {
  const events: PortEvent[] = [];
  const token = new Token();
  const push = (event: PortEvent): void => {
    events.push(event);
    onEvent(event, token);
  };
  const port: CellExecutionPort = {
    token,
    setExecutionOrder: (order) => push({ type: 'order', order }),
    start: () => push({ type: 'start' }),
    clearOutput: async () => push({ type: 'clear' }),
    appendLog: async (text, stream) => push({ type: 'log', text, stream }),
    showResult: async (result) => push({ type: 'result', result }),
    showProblem: async (problem) =>
      push({
        type: 'problem',
        message: problem.message,
        persist: problem.persist,
        ...(problem.actions === undefined ? {} : { actions: problem.actions }),
      }),
    end: (success) => push({ type: 'end', success }),
  };
  return { port, events, token };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-cell-job-'));
const bindingsPath = path.join(dir, 'jobs.bindings.mjs');
fs.writeFileSync(
  bindingsPath,
  'export default { tools: { functions: { add: { mock: async ({ a, b }) => a + b } } } };\n',
);
const { logger, lines } = recordingLogger();
const pool = new RuntimePool({ create: createRuntime, log: logger });
// one session per bindings module, as one per notebook in the extension
const sessions = new Map<string, Session>();
const sessionFor = (file: string | undefined): Session => {
  let session = sessions.get(file ?? '');
  if (session === undefined) {
    session = createSession({
      runtimeFor: pool.providerFor(sessions),
      ...(file === undefined ? {} : { bindingsPath: file }),
    });
    sessions.set(file ?? '', session);
  }
  return session;
};
afterAll(async () => {
  await pool.dispose();
  await Promise.all([...sessions.values()].map((s) => s.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
});

let order = 0;
function deps(overrides: Partial<CellJobDeps> = {}, file: string | undefined = bindingsPath): CellJobDeps {
  return {
    run: (request, paths) => pool.run(sessions, sessionFor(file), request, paths),
    approveRuntimePaths: async () => ({ ok: true, paths: {} }),
    nextExecutionOrder: () => ++order,
    log: logger,
    t: untranslated,
    ...overrides,
  };
}

function input(program: string, overrides: Partial<CellJobInput> = {}): CellJobInput {
  return {
    languageId: 'typescript',
    program,
    cellIndex: 0,
    cellLabel: 'test.ptcnb cell 1',
    cellMetadata: { id: 'job' },
    notebookMetadata: { bindings: './jobs.bindings.mjs' },
    notebookDir: dir,
    notebookFile: path.join(dir, 'test.ptcnb'),
    cwd: dir,
    bindingsPath,
    defaultMode: 'mock',
    limits: { timeoutMs: 60_000 },
    trusted: true,
    ...overrides,
  };
}

// Direct children of this test process (the sandboxed program runs under one while it lives), `ps` itself excluded.
function childPids(): Set<string> {
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return new Set(
    out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !/^\d+ ps /.test(l))
      .map((l) => l.split(' ')[0] as string),
  );
}

describe('runCellJob', () => {
  test('streams logs into the cell, then replaces them with the result and ends with ✓', async () => {
    const { port, events } = recordingPort();
    const outcome = await runCellJob(
      port,
      input(
        "for (let i = 0; i < 3; i++) console.log('line', i);\n// lets the batched log stream flush before the result replaces it\nawait new Promise((r) => setTimeout(r, 500));\nreturn await tools.add({ a: 2, b: 3 });",
      ),
      deps(),
    );
    expect(outcome).toBe('succeeded');
    const types = events.map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['order', 'start', 'clear']);
    expect(types.indexOf('log')).toBeGreaterThan(types.indexOf('clear'));
    expect(types.lastIndexOf('log')).toBeLessThan(types.indexOf('result'));
    expect(
      events
        .filter((e) => e.type === 'log')
        .map((e) => (e as { text: string }).text)
        .join(''),
    ).toBe('line 0\nline 1\nline 2\n');
    expect(events.at(-1)).toEqual({ type: 'end', success: true });
    const result = (events.find((e) => e.type === 'result') as { result: RunResult }).result;
    expect(result).toMatchObject({ value: 5, mode: 'mock' });
    expect(lines.some((l) => l.text.includes('test.ptcnb cell 1: call tools.add ok'))).toBe(true);
  });

  test('a failing program ends with ✗ and its failure in the result', async () => {
    const { port, events } = recordingPort();
    expect(await runCellJob(port, input("throw new Error('nope');"), deps())).toBe('failed');
    expect((events.find((e) => e.type === 'result') as { result: RunResult }).result.error?.kind).toBe('exception');
    expect(events.at(-1)).toEqual({ type: 'end', success: false });
  });

  test('cancel kills the process and the cell ends with neither ✓ nor ✗', async () => {
    const before = childPids();
    let during = new Set<string>();
    const { port, events } = recordingPort((event, token) => {
      if (event.type !== 'log') return;
      during = childPids();
      token.cancel();
    });
    const started = Date.now();
    const outcome = await runCellJob(
      port,
      input("console.log('waiting forever');\nawait new Promise(() => {});"),
      deps(),
    );
    expect(outcome).toBe('aborted');
    expect(events.at(-1)).toEqual({ type: 'end', success: undefined });
    // far below the 60 s deadline: the stop button, not the timeout, ended it
    expect(Date.now() - started).toBeLessThan(30_000);
    expect([...during].filter((pid) => !before.has(pid)).length).toBeGreaterThan(0);
    // the kill is sent before the result comes back; the kernel may take a moment to reap the tree
    expect(
      await settleTo(() => [...childPids()].filter((pid) => !before.has(pid))),
      "the cancelled cell's processes still running",
    ).toEqual([]);
  });

  test('a cell cancelled while still queued ends without a mark and never runs', async () => {
    const { port, events, token } = recordingPort();
    token.cancel();
    let ran = false;
    expect(
      await runCellJob(
        port,
        input('return 1;'),
        deps({ run: async () => ((ran = true), { kind: 'setup-failed', stage: 'request', message: 'x' }) }),
      ),
    ).toBe('cancelled');
    expect(ran).toBe(false);
    expect(events).toEqual([{ type: 'end', success: undefined }]);
  });

  test('in Restricted Mode the cell does not run and says why, ending with ✗', async () => {
    const { port, events } = recordingPort();
    let ran = false;
    const outcome = await runCellJob(
      port,
      input('return 1;', { trusted: false }),
      deps({ run: async () => ((ran = true), { kind: 'setup-failed', stage: 'request', message: 'x' }) }),
    );
    expect(outcome).toBe('refused');
    expect(ran).toBe(false);
    const problem = events.find((e) => e.type === 'problem') as { message: string; persist: boolean };
    expect(problem.message).toMatch(/Restricted Mode/);
    expect(problem.message).toMatch(/bindings module, which is code from this workspace/);
    expect(problem.persist).toBe(false);
    // the output's button: Manage Workspace Trust (the host allows it in Restricted Mode)
    expect((problem as { actions?: string[] }).actions).toEqual(['manage-trust']);
    expect(events.at(-1)).toEqual({ type: 'end', success: false });
  });

  test('an empty cell ends with no execution order and no mark', async () => {
    const { port, events } = recordingPort();
    expect(await runCellJob(port, input('  \n'), deps())).toBe('empty');
    expect(events).toEqual([
      { type: 'order', order: undefined },
      { type: 'start' },
      { type: 'clear' },
      { type: 'end', success: undefined },
    ]);
  });

  test.each([
    [
      'a language other than TypeScript or Python',
      input('puts 1', { languageId: 'ruby' }),
      deps(),
      /runs TypeScript and Python cells; this cell is "ruby"/,
    ],
    [
      'an interpreter path the user did not approve',
      input('return 1;'),
      deps({ approveRuntimePaths: async () => ({ ok: false, message: 'not allowed: /opt/evil/node' }) }),
      /not allowed: \/opt\/evil\/node/,
    ],
  ])('%s is refused with a message on the cell', async (_name, cellInput, cellDeps, message) => {
    const { port, events } = recordingPort();
    expect(await runCellJob(port, cellInput, cellDeps)).toBe('refused');
    expect((events.find((e) => e.type === 'problem') as { message: string }).message).toMatch(message);
    expect(events.at(-1)).toEqual({ type: 'end', success: false });
  });

  test('a broken bindings module shows a clear, saved error on the cell and in the log', async () => {
    const broken = path.join(dir, 'broken.bindings.ts');
    fs.writeFileSync(broken, 'export default { tools: { functions: { x: ( } } };\n');
    const { port, events } = recordingPort();
    expect(await runCellJob(port, input('return 1;', { bindingsPath: broken }), deps({}, broken))).toBe('setup-failed');
    const problem = events.find((e) => e.type === 'problem') as {
      message: string;
      persist: boolean;
      actions?: string[];
    };
    expect(problem.message).toMatch(/^The cell could not run \(bindings\): .*broken\.bindings\.ts:1:\d+/);
    expect(problem.persist).toBe(true);
    // offered on the cell as buttons: pick another module, or read the log
    expect(problem.actions).toEqual(['set-notebook-bindings', 'show-log']);
    expect(
      lines.some(
        (l) => l.level === 'warn' && l.text.includes('bindings problem') && l.text.includes('broken.bindings.ts'),
      ),
    ).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'end', success: false });
  });
});
