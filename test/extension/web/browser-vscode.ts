// The part of the `vscode` API the browser entry calls, for a real browser worker: the data classes from
// ../helpers/fake-vscode.ts and registrations that record what the entry registered. Bundled for the worker by the
// test.
import {
  NotebookCellData,
  NotebookCellKind,
  NotebookCellOutput,
  NotebookCellOutputItem,
  NotebookData,
} from '../helpers/fake-vscode.js';

// One cell execution as the entry drove it: its outputs and how it ended; `cancel` is the editor's Stop.
export interface Execution {
  started: boolean;
  success: boolean | undefined;
  ended: boolean;
  order: number | undefined;
  outputs: InstanceType<typeof NotebookCellOutput>[];
  // when the entry started and ended it (ms since the epoch, the entry's own clock readings)
  startedAt?: number;
  endedAt?: number;
  cancel(): void;
  onEnd?: () => void;
}

export interface Recorded {
  serializers: {
    type: string;
    serializer: { deserializeNotebook(b: Uint8Array): unknown; serializeNotebook(d: unknown): Uint8Array };
  }[];
  controllers: { id: string; type: string; label: string; executeHandler?: (cells: unknown[]) => void }[];
  executions: Execution[];
  commands: Map<string, () => unknown>;
  warnings: string[];
  logs: string[];
}

const recorded: Recorded = {
  serializers: [],
  controllers: [],
  executions: [],
  commands: new Map(),
  warnings: [],
  logs: [],
};
const disposable = { dispose: () => undefined };
const channel = {
  ...Object.fromEntries(
    ['trace', 'debug', 'info', 'warn', 'error'].map((level) => [
      level,
      (m: string) => recorded.logs.push(`${level} ${m}`),
    ]),
  ),
  show: () => undefined,
  dispose: () => undefined,
};

// A workspace of a few files the test puts in place (`__files`, by path), read as the editor's file system would.
const files = (): Record<string, string> => (globalThis as { __files?: Record<string, string> }).__files ?? {};
function normalize(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '' && segment !== '.') out.push(segment);
  }
  return `/${out.join('/')}`;
}

// A URI as the entry uses one: a path in the workspace, or (with a scheme and authority) where the extension is served
interface Uri {
  scheme: string;
  authority: string;
  path: string;
  toString(skipEncoding?: boolean): string;
}
function uri(scheme: string, authority: string, path: string): Uri {
  return { scheme, authority, path, toString: () => `${scheme}://${authority}${path}` };
}

const vscode = {
  Uri: {
    joinPath: (base: { scheme?: string; authority?: string; path: string }, ...parts: string[]) =>
      uri(base.scheme ?? 'file', base.authority ?? '', normalize([base.path, ...parts].join('/'))),
  },
  NotebookCellData,
  NotebookCellKind,
  NotebookCellOutput,
  NotebookCellOutputItem,
  NotebookData,
  l10n: {
    t: (message: string, ...args: unknown[]) =>
      message.replace(/\{(\d+)\}/g, (w, i: string) => String(args[Number(i)] ?? w)),
  },
  window: {
    createOutputChannel: () => channel,
    // answered from `__answers` (a driver's scripted choices, in order), else dismissed
    showWarningMessage: (message: string, ...items: unknown[]) => {
      recorded.warnings.push(message);
      const answer = (globalThis as { __answers?: string[] }).__answers?.shift();
      return Promise.resolve(items.includes(answer) ? answer : undefined);
    },
  },
  workspace: {
    // a driver may clear it to see Restricted Mode
    isTrusted: true,
    fs: {
      readFile: (uri: { path: string }) => {
        const text = files()[uri.path];
        return text === undefined
          ? Promise.reject(new Error(`FileNotFound: ${uri.path}`))
          : Promise.resolve(new TextEncoder().encode(text));
      },
    },
    getConfiguration: () => ({ get: () => undefined }),
    onDidChangeConfiguration: () => disposable,
    registerNotebookSerializer: (type: string, serializer: Recorded['serializers'][number]['serializer']) => {
      recorded.serializers.push({ type, serializer });
      return disposable;
    },
  },
  notebooks: {
    createNotebookController: (id: string, type: string, label: string) => {
      const controller: Recorded['controllers'][number] & Record<string, unknown> = {
        id,
        type,
        label,
        dispose: () => undefined,
        createNotebookCellExecution: (cell: unknown) => {
          const listeners: (() => void)[] = [];
          let cancelled = false;
          const execution: Execution = {
            started: false,
            success: undefined,
            ended: false,
            order: undefined,
            outputs: [],
            cancel: () => {
              cancelled = true;
              for (const listener of listeners) listener();
            },
          };
          recorded.executions.push(execution);
          return {
            cell,
            token: {
              get isCancellationRequested() {
                return cancelled;
              },
              onCancellationRequested: (listener: () => void) => {
                listeners.push(listener);
                return disposable;
              },
            },
            set executionOrder(order: number | undefined) {
              execution.order = order;
            },
            start: (at?: number) => {
              execution.started = true;
              execution.startedAt = at;
            },
            clearOutput: () => {
              execution.outputs = [];
              return Promise.resolve();
            },
            replaceOutput: (output: InstanceType<typeof NotebookCellOutput>) => {
              execution.outputs = [output];
              return Promise.resolve();
            },
            end: (success: boolean | undefined, at?: number) => {
              execution.success = success;
              execution.endedAt = at;
              execution.ended = true;
              execution.onEnd?.();
            },
          };
        },
      };
      recorded.controllers.push(controller);
      return controller;
    },
  },
  commands: {
    registerCommand: (id: string, handler: () => unknown) => {
      recorded.commands.set(id, handler);
      return disposable;
    },
  },
};

(globalThis as { __vscode?: unknown; __recorded?: Recorded }).__vscode = vscode;
(globalThis as { __recorded?: Recorded }).__recorded = recorded;
