import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { createRuntime, createSession } from '../../../runtime/index.js';
import { RuntimePool } from '../../../extension/execution/runtime-pool.js';
import { recordingLogger } from '../helpers/recording-logger.js';

// The parts of the notebook API the controller touches, recording what it does with each cell execution.
const host = vi.hoisted(() => {
  class Token {
    isCancellationRequested = false;
    readonly listeners = new Set<() => void>();
    onCancellationRequested(listener: () => void) {
      this.listeners.add(listener);
      return { dispose: () => this.listeners.delete(listener) };
    }
    cancel() {
      this.isCancellationRequested = true;
      for (const l of this.listeners) l();
    }
  }
  interface FakeExecution {
    cell: { index: number; notebook: unknown };
    token: Token;
    executionOrder: number | undefined;
    startedAt?: number;
    endedAt?: number;
    success?: boolean | undefined;
    ended: boolean;
    outputs: unknown[];
  }
  const executions: FakeExecution[] = [];
  let handler: ((cells: unknown[], notebook: unknown) => Promise<void>) | undefined;
  const edits: unknown[] = [];
  const state = { executions, edits, Token, handler: () => handler };
  const fake = {
    l10n: {
      t: (message: string, ...args: unknown[]) =>
        message.replace(/\{(\d+)\}/g, (_m: string, i: string) => String(args[Number(i)])),
    },
    NotebookControllerAffinity: { Default: 1, Preferred: 2 },
    notebooks: {
      createNotebookController: () => ({
        set executeHandler(h: typeof handler) {
          handler = h;
        },
        createNotebookCellExecution: (cell: FakeExecution['cell']) => {
          const execution: FakeExecution & Record<string, unknown> = {
            cell,
            token: new Token(),
            executionOrder: undefined,
            ended: false,
            outputs: [],
            start: (t: number) => void (execution.startedAt = t),
            end: (success: boolean | undefined, t: number) => {
              if (execution.ended) throw new Error('end called twice');
              execution.ended = true;
              execution.success = success;
              execution.endedAt = t;
            },
            clearOutput: async () => void (execution.outputs = []),
            appendOutput: async (o: unknown) => void execution.outputs.push(o),
            replaceOutput: async (o: unknown) => void (execution.outputs = [o]),
          };
          executions.push(execution);
          return execution;
        },
        updateNotebookAffinity: () => undefined,
        dispose: () => undefined,
      }),
    },
    workspace: {
      isTrusted: true,
      notebookDocuments: [] as unknown[],
      workspaceFolders: undefined,
      onDidOpenNotebookDocument: () => ({ dispose: () => undefined }),
      getWorkspaceFolder: () => undefined,
      asRelativePath: (uri: { fsPath: string }) => path.basename(uri.fsPath),
      getConfiguration: () => ({ get: () => undefined, inspect: () => ({}) }),
      applyEdit: async (edit: {
        entries: {
          metadata: Record<string, unknown>;
          index: number;
          uri: { cells: { metadata: Record<string, unknown> }[] };
        }[];
      }) => {
        for (const e of edit.entries) {
          const cell = e.uri.cells[e.index];
          if (cell !== undefined) cell.metadata = e.metadata;
        }
        edits.push(edit);
        return true;
      },
    },
    WorkspaceEdit: class {
      entries: unknown[] = [];
      set(uri: unknown, changes: { index: number; metadata: unknown }[]) {
        for (const c of changes) this.entries.push({ uri, ...c });
      }
    },
    NotebookEdit: { updateCellMetadata: (index: number, metadata: unknown) => ({ index, metadata }) },
  };
  return { state, fake };
});

vi.mock('vscode', async () => ({ ...(await import('../helpers/fake-vscode.js')), ...host.fake }));
const { PtcNotebookController } = await import('../../../extension/execution/controller.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-controller-'));
const { logger } = recordingLogger();
const pool = new RuntimePool({ create: createRuntime, log: logger });
const owner = {};
const session = createSession({ runtimeFor: pool.providerFor(owner) });
const finished: number[] = [];
const controller = new PtcNotebookController({
  log: logger,
  run: (_notebook, request, paths) => pool.run(owner, session, request, paths),
  approveRuntimePaths: async () => ({ ok: true, paths: {} }),
  onDidFinish: (cell) => finished.push(cell.index),
});
afterAll(async () => {
  controller.dispose();
  await pool.dispose();
  await session.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface FakeCell {
  index: number;
  kind: number;
  metadata: Record<string, unknown>;
  document: { languageId: string; getText: () => string };
  notebook: FakeNotebook;
}
interface FakeNotebook {
  uri: { scheme: string; fsPath: string; toString: () => string; cells: FakeCell[] };
  metadata: Record<string, unknown>;
  notebookType: string;
  getCells: () => FakeCell[];
}

function notebook(name: string, programs: { source: string; id?: string }[]): FakeNotebook {
  const file = path.join(dir, `${name}.ptcnb`);
  const cells: FakeCell[] = [];
  const nb: FakeNotebook = {
    uri: { scheme: 'file', fsPath: file, toString: () => `file://${file}`, cells },
    metadata: {},
    notebookType: 'ptc-notebook',
    getCells: () => cells,
  };
  programs.forEach((p, index) =>
    cells.push({
      index,
      kind: 2,
      metadata: p.id === undefined ? {} : { id: p.id },
      document: { languageId: 'typescript', getText: () => p.source },
      notebook: nb,
    }),
  );
  return nb;
}

const executionsOf = (nb: FakeNotebook) => host.state.executions.filter((e) => e.cell.notebook === nb);

describe('PtcNotebookController', () => {
  test("queues a notebook's cells at once and runs them one at a time with per-notebook execution order", async () => {
    const slow = 'await new Promise((r) => setTimeout(r, 300));\nreturn 1;';
    const first = notebook('first', [
      { source: slow, id: 'a' },
      { source: 'return 2;', id: 'b' },
      { source: slow, id: 'c' },
    ]);
    const second = notebook('second', [
      { source: slow, id: 'x' },
      { source: 'return 3;', id: 'y' },
    ]);
    const handler = host.state.handler();
    if (handler === undefined) throw new Error('no execute handler');
    const running = [handler(first.getCells(), first), handler(second.getCells(), second)];
    // every cell is pending as soon as it is queued
    expect(executionsOf(first)).toHaveLength(3);
    expect(executionsOf(second)).toHaveLength(2);
    await Promise.all(running);
    for (const nb of [first, second]) {
      const runs = executionsOf(nb);
      expect(runs.map((e) => e.executionOrder)).toEqual(runs.map((_e, i) => i + 1));
      expect(runs.every((e) => e.success === true)).toBe(true);
      // one at a time: each cell starts after the previous one ended
      for (let i = 1; i < runs.length; i++)
        expect(runs[i]?.startedAt).toBeGreaterThanOrEqual(runs[i - 1]?.endedAt as number);
    }
    // the two notebooks overlapped in time
    const [a] = executionsOf(first);
    const [x] = executionsOf(second);
    expect((x?.startedAt as number) < (a?.endedAt as number) && (a?.startedAt as number) < (x?.endedAt as number)).toBe(
      true,
    );
    expect(finished).toHaveLength(5);
  });

  test('a cell cancelled while it waits in the queue never starts and ends without a mark', async () => {
    const nb = notebook('cancel', [
      { source: 'await new Promise((r) => setTimeout(r, 500));\nreturn 1;', id: 'long' },
      { source: 'return 2;', id: 'queued' },
    ]);
    const done = host.state.handler()?.(nb.getCells(), nb);
    const [, queued] = executionsOf(nb);
    queued?.token.cancel();
    await done;
    expect(queued?.ended).toBe(true);
    expect(queued?.success).toBeUndefined();
    expect(queued?.startedAt).toBeUndefined();
    expect(executionsOf(nb)[0]?.success).toBe(true);
  });

  test('a failing cell does not stop the cells queued after it', async () => {
    const nb = notebook('failure', [
      { source: "throw new Error('first fails');", id: 'f1' },
      { source: 'return 2;', id: 'f2' },
    ]);
    await host.state.handler()?.(nb.getCells(), nb);
    expect(executionsOf(nb).map((e) => e.success)).toEqual([false, true]);
  });

  test('a cell without an id gets one stored in its metadata before it runs (cassette names)', async () => {
    const nb = notebook('ids', [
      { source: 'return 1;' },
      { source: 'return 2;', id: 'dup' },
      { source: 'return 3;', id: 'dup' },
    ]);
    await host.state.handler()?.(nb.getCells(), nb);
    const ids = nb.getCells().map((c) => c.metadata.id);
    expect(ids[0]).toMatch(/^[a-z0-9]{8}$/);
    expect(ids[1]).toBe('dup');
    // a copied cell with a duplicate id gets a fresh one
    expect(ids[2]).toMatch(/^[a-z0-9]{8}$/);
    expect(new Set(ids).size).toBe(3);
  });
});
