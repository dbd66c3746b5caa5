// Entry of the browser's bindings worker (built by scripts/build-web-extension.mjs, embedded in the web extension):
// the browser's counterpart of the desktop's bindings host process (host/main.ts), a dedicated web worker per loaded
// module that imports the module and runs its handlers, so a handler that loops, throws or never settles touches
// neither the extension host nor the program's engine worker. The module is validated, its schemas compiled and each
// call served (argument schema, mock faults, per-call deadline, output schema) by the desktop's own modules; the
// extension host (web-bindings-host.ts) reads everything said here as hostile (worker-wire.ts).
import type { BindingNamespace, CallContext } from '../../api.js';
import { keptDetails } from '../../bindings/call-failure.js';
import { renderThrown } from '../../bindings/dispatcher.js';
import { BindingsModuleError, type BindingsModule } from '../../bindings/module-format.js';
import { resolveBindings, servedNamespaces } from '../../bindings/module-resolve.js';
import { PUBLIC_SOURCE } from '../../bindings/public-specifier.js';
import { decodeLossless, encodeLossless } from '../../json/lossless.js';
import { errorMessage } from '../../output/error-message.js';
import type { JsonValue } from '../../protocol/json-value.js';
import { describeModule } from '../host/describe.js';
import { HEARTBEAT_MS } from '../limits.js';
import { scanModule } from './module-imports.js';
import {
  answerFrameText,
  ToBindingsWorkerSchema,
  type FromBindingsWorker,
  type ToBindingsWorker,
} from './worker-wire.js';

interface WorkerScope {
  postMessage(message: string): void;
  onmessage: ((event: { data: unknown }) => void) | null;
  addEventListener(
    type: string,
    listener: (event: { reason?: unknown; error?: unknown; message?: string; preventDefault(): void }) => void,
  ): void;
}
const scope = globalThis as unknown as WorkerScope;
const post = scope.postMessage.bind(scope);
// frames without a program's value (an answer is written by itself: it may be too deep for JSON.stringify)
const say = (frame: Exclude<FromBindingsWorker, { type: 'answer' }>): void => {
  const text = encodeLossless(frame);
  post(
    text.ok ? text.text : JSON.stringify({ type: 'warning', message: `a frame could not be written: ${text.reason}` }),
  );
};
const warn = (message: string): void => say({ type: 'warning', message });

interface ServedCall {
  controller: AbortController;
  stop: ((reason: Error) => void) | undefined;
}

interface Run {
  byGlobal: Map<string, BindingNamespace>;
  calls: Map<number, ServedCall>;
}

let module: BindingsModule | undefined;
let loading = false;
const runs = new Map<number, Run>();

// The module's text run as an ES module from a blob: URL, `ptc-playground/bindings` served from another.
async function importModule(file: string, code: string): Promise<unknown> {
  const publicUrl = URL.createObjectURL(new Blob([PUBLIC_SOURCE], { type: 'text/javascript' }));
  const scanned = scanModule(file, code, publicUrl);
  if (!scanned.ok) throw new BindingsModuleError(scanned.message);
  const url = URL.createObjectURL(new Blob([scanned.code], { type: 'text/javascript' }));
  try {
    // a variable specifier: the bundler leaves this import to the browser
    return (await import(/* @vite-ignore */ url)) as unknown;
  } finally {
    URL.revokeObjectURL(url);
  }
}

async function load(file: string, code: string): Promise<void> {
  let exported: unknown;
  try {
    const imported = await importModule(file, code);
    exported = (imported as { default?: unknown } | null)?.default;
  } catch (error) {
    const message =
      error instanceof BindingsModuleError
        ? error.message
        : `bindings module ${file} failed to load: ${errorMessage(error)}`;
    return say({ type: 'load-failed', message });
  }
  if (exported === null || typeof exported !== 'object' || Array.isArray(exported))
    return say({
      type: 'load-failed',
      message: `bindings module ${file} must default-export a plain object (one key per namespace global)`,
    });
  try {
    module = await resolveBindings(file, exported as Record<string, unknown>, {
      onWarning: warn,
      // a browser starts no process; an MCP server over HTTP is reached from here
      stdio: undefined,
      // a browser has no environment: a header that names a variable fails the load, naming it
      env: {},
    });
  } catch (error) {
    const message =
      error instanceof BindingsModuleError
        ? named(file, error.message)
        : `bindings module ${file} failed to load: ${errorMessage(error)}`;
    return say({ type: 'load-failed', message });
  }
  say({ type: 'loaded', module: describeModule(module, warn) });
}

// The validator's message (`tools.functions.f: …`, the desktop's words) with the module it is about.
const named = (file: string, message: string): string =>
  message.startsWith('bindings module ') ? message : `bindings module ${file}: ${message}`;

function call(message: Extract<ToBindingsWorker, { type: 'call' }>): void {
  const { run: runId, id, global, name } = message;
  const run = runs.get(runId);
  const functions = run?.byGlobal.get(global)?.functions;
  // own keys only (a function may be called `__proto__`)
  const fn = functions !== undefined && Object.hasOwn(functions, name) ? functions[name] : undefined;
  if (run === undefined || fn === undefined)
    return say({ type: 'failed', run: runId, id, message: `no function ${global}.${name} in this run` });
  const served: ServedCall = { controller: new AbortController(), stop: undefined };
  run.calls.set(id, served);
  const context: CallContext = {
    id,
    global,
    name,
    signal: served.controller.signal,
    annotate: (note) => {
      if (note.schemaViolation !== undefined)
        say({ type: 'note', run: runId, id, schemaViolation: note.schemaViolation });
      if (note.progress !== undefined) {
        const {
          progress,
          total,
          message: said,
        } = note.progress as { progress: unknown; total?: unknown; message?: unknown };
        if (typeof progress !== 'number' || !Number.isFinite(progress)) return;
        say({
          type: 'note',
          run: runId,
          id,
          progress: {
            progress,
            ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
            ...(typeof said === 'string' ? { message: said } : {}),
          },
        });
      }
    },
    interruptible: (stop) => {
      served.stop = stop;
      return () => (served.stop = undefined);
    },
  };
  let answered: Promise<JsonValue>;
  try {
    answered = fn(message.args as JsonValue, context);
  } catch (thrown) {
    answered = Promise.reject(thrown);
  }
  answered.then(
    (value) => {
      if (!run.calls.delete(id)) return;
      // the served function's value is a lossless snapshot already; written without recursion (it may be deep)
      const text = encodeLossless(value);
      if (text.ok) post(answerFrameText(runId, id, text.text));
      else say({ type: 'failed', run: runId, id, message: `the answer is not lossless JSON: ${text.reason}` });
    },
    (thrown: unknown) => {
      if (!run.calls.delete(id)) return;
      const details = keptDetails(thrown);
      say({
        type: 'failed',
        run: runId,
        id,
        message: renderThrown(thrown),
        ...(details === undefined ? {} : { details }),
      });
    },
  );
}

function handle(message: ToBindingsWorker): void {
  switch (message.type) {
    case 'load':
      if (loading) return;
      loading = true;
      void load(message.file, message.code);
      return;
    case 'open-run': {
      if (module === undefined) return;
      const byGlobal = new Map<string, BindingNamespace>();
      for (const ns of servedNamespaces(module, message.mode, { seed: message.seed, onWarning: warn }))
        byGlobal.set(ns.global, ns);
      runs.set(message.run, { byGlobal, calls: new Map() });
      return;
    }
    case 'call':
      return call(message);
    case 'stop': {
      const served = runs.get(message.run)?.calls.get(message.id);
      if (served === undefined) return;
      // the served function answers with it (naming itself) and aborts the handler's signal
      if (served.stop !== undefined) served.stop(new Error(message.message));
      else served.controller.abort(new Error(message.message));
      return;
    }
    case 'close-run': {
      const run = runs.get(message.run);
      runs.delete(message.run);
      for (const served of run?.calls.values() ?? []) served.controller.abort(new Error('run settled'));
      return;
    }
  }
}

scope.onmessage = (event) => {
  if (typeof event.data !== 'string') return;
  const decoded = decodeLossless(event.data);
  const parsed = decoded.ok ? ToBindingsWorkerSchema.safeParse(decoded.value) : undefined;
  if (parsed?.success === true) handle(parsed.data);
};

// what the module's code leaves uncaught (a timer's throw, a rejection nobody awaited) is said, as the desktop's host
// writes it to its stderr
scope.addEventListener('error', (event) => {
  event.preventDefault();
  warn(`the bindings module threw uncaught: ${event.message ?? errorMessage(event.error)}`);
});
scope.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  warn(`a promise of the bindings module rejected unhandled: ${errorMessage(event.reason)}`);
});
// the module's console reaches the extension's log, as the desktop host's output does
const consoleOf = globalThis.console as unknown as Record<string, unknown>;
for (const [method, stream] of [
  ['log', 'stdout'],
  ['info', 'stdout'],
  ['debug', 'stdout'],
  ['warn', 'stderr'],
  ['error', 'stderr'],
] as const)
  consoleOf[method] = (...parts: unknown[]) =>
    say({ type: 'log', stream, text: parts.map((part) => (typeof part === 'string' ? part : shown(part))).join(' ') });

function shown(value: unknown): string {
  try {
    return typeof value === 'object' && value !== null && !(value instanceof Error)
      ? JSON.stringify(value)
      : String(value);
  } catch {
    return errorMessage(value);
  }
}
// silence is how the extension host tells a handler stuck in a synchronous loop from a slow one
setInterval(() => post('{"type":"heartbeat"}'), HEARTBEAT_MS);
