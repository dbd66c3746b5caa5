// Entry of the fresh Node process that runs one model program; built to dist/runtime/node-child.cjs.
import Module from 'node:module';
import os from 'node:os';
import traceEvents from 'node:trace_events';
import v8 from 'node:v8';
import vm from 'node:vm';
import { encodeWithin, parseIterative } from '../../json/lossless.js';
import {
  BufferByteLength,
  BufferPrototypeUtf8Slice as utf8Slice,
  FunctionPrototypeHasInstance,
  JSONParse as parse,
  JSONStringify as stringify,
  ObjectCreate,
  ObjectDefineProperty,
  PromisePrototypeThen,
  RangeErrorCtor,
  ReflectApply,
  StringCtor,
  Uint8ArrayCtor,
  withOwnApply,
} from '../../json/primordials.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import { OutputLedger, outputLimitMessage } from '../../output/ledger.js';
import { createConsole } from './console-shim.js';
import {
  callRouter,
  denyUnixSockets,
  errorFrame,
  receiveFrames,
  receiveHostReplies,
  sendFrame,
  sendFrameParts,
  sendLogFrame,
} from './control.js';
import { describeThrown } from './describe-thrown.js';
import { LineBuffer } from './line-buffer.js';
import { createNamespaces, type ReplyHandler } from './namespaces.js';
import { freezeNondeterminism } from './freeze-nondeterminism.js';

// Captured before any model code runs: the program shares this realm and may rebind globals and patch prototypes,
// so everything that runs after it starts (settling, logging, replies) uses captured intrinsics and builds its
// frames as text (JSON.stringify of a frame object would honour a toJSON planted on Object.prototype).
// reallyExit skips 'exit' listeners the program may have added
const exit = (process as unknown as { reallyExit: (code: number) => void }).reallyExit.bind(process) as (
  code: number,
) => never;
const processOn = process.on.bind(process);
const setCaptureCallback = process.setUncaughtExceptionCaptureCallback.bind(process);
const hasCaptureCallback = process.hasUncaughtExceptionCaptureCallback.bind(process);
const enqueueMicrotask = queueMicrotask;
const ScriptCtor = vm.Script;
const cpuUsage = process.cpuUsage.bind(process);
const removeAllListeners = process.removeAllListeners.bind(process);
const kill = process.kill.bind(process);
const ownPid = process.pid;

// The CPU time limit the child inherited (boot.cpuSeconds): a program that trapped SIGXCPU and used at least that
// much still ends as the host's CPU timeout; its listeners go (Node then restores the default action) and the signal
// is raised again. Runs first on every settle path.
let cpuLimitMicros = Number.POSITIVE_INFINITY;
function recheckCpu(): void {
  const used = cpuUsage();
  if (used.user + used.system < cpuLimitMicros) return;
  removeAllListeners('SIGXCPU');
  kill(ownPid, 'SIGXCPU');
}

let settled = false;
let ledger: OutputLedger | undefined;
const stdoutLines = new LineBuffer(
  (line, open) => emitLog('stdout', line, open),
  () => remainingBudget(),
);
const stderrLines = new LineBuffer(
  (line, open) => emitLog('stderr', line, open),
  () => remainingBudget(),
);

function remainingBudget(): number {
  return ledger === undefined ? Number.MAX_SAFE_INTEGER : ledger.maxBytes - ledger.used;
}

function emitLog(stream: 'stdout' | 'stderr', text: string, open = false): void {
  if (settled || ledger === undefined) return;
  // the host keeps the same ledger: an open text is continued by the stream's next text there too
  const admitted = ledger.admit(text, stream, open);
  if (admitted.text !== undefined) sendLogFrame(stream, admitted.text, open && admitted.fitted);
  if (!admitted.fitted) finishWithError('output-limit', outputLimitMessage(ledger.maxBytes));
}

function finishWithError(kind: string, message: string): never {
  return finishWithText(errorFrame(kind, message));
}

function finishWithText(text: string): never {
  if (!settled) {
    recheckCpu();
    settled = true;
    sendFrame(text);
  }
  return exit(0);
}

// Stream writes (process.stdout.write and friends) become line-buffered log entries.
function patchStream(stream: NodeJS.WriteStream, lines: LineBuffer): void {
  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const cb = typeof encoding === 'function' ? encoding : callback;
    const text =
      typeof chunk === 'string'
        ? chunk
        : FunctionPrototypeHasInstance(Uint8ArrayCtor, chunk)
          ? utf8Slice(chunk as Uint8Array, 0, (chunk as Uint8Array).length)
          : StringCtor(chunk);
    lines.write(text);
    if (typeof cb === 'function') enqueueMicrotask(() => ReflectApply(cb, undefined, []));
    return true;
  };
  Object.defineProperty(stream, 'write', { value: write, writable: true, configurable: true });
  // opening the stream made the pipe non-blocking; raw fs.writeSync(1|2) from the program would then fail with
  // EAGAIN or write short instead of waiting for the host to read (hostile corpus: native floods)
  (stream as unknown as { _handle?: { setBlocking?: (on: boolean) => unknown } })._handle?.setBlocking?.(true);
}

// Node delivers 'uncaughtException' through whatever process.emit is at the time: once the program replaces it,
// uncaught errors go to a capture callback (held inside Node) instead. Installed only then, because it cannot
// coexist with the `domain` module, which ordinary programs may load.
function guardProcessEmit(): void {
  let emit: unknown = process.emit;
  const descriptor = ObjectCreate(null) as PropertyDescriptor;
  descriptor.get = () => emit;
  descriptor.set = (value: unknown) => {
    emit = value;
    if (!hasCaptureCallback()) setCaptureCallback((error: unknown) => settleWithFailure(error));
  };
  descriptor.configurable = false;
  ObjectDefineProperty(process, 'emit', descriptor);
}

function settleWithFailure(thrown: unknown): never {
  try {
    const failure = describeThrown(thrown);
    stdoutLines.flush();
    stderrLines.flush();
    const l = ledger as OutputLedger;
    const text = errorFrame('exception', failure.message, failure.location);
    if (!l.fits(BufferByteLength(stringify(failure.message), 'utf8')))
      finishWithError('output-limit', outputLimitMessage(l.maxBytes));
    return finishWithText(text);
  } catch {
    // the settle path itself failed (an intrinsic it needed was broken beyond what was captured): still a result
    return finishWithError('exception', 'the program broke the runtime while it was reporting a failure');
  }
}

function settleWithValue(value: unknown): never {
  try {
    stdoutLines.flush();
    stderrLines.flush();
    const l = ledger as OutputLedger;
    if (value === undefined) return finishWithText('{"type":"done"}');
    // one walk validates, meters and writes the text in parts: a value far over what is left costs only that much
    const encoded = encodeWithin(value, l.maxBytes - l.used);
    if (!encoded.ok) {
      if (encoded.kind === 'lossy')
        finishWithError('invalid-output', `program completion must be lossless JSON: ${encoded.reason}`);
      finishWithError('output-limit', outputLimitMessage(l.maxBytes));
    }
    if (!settled) {
      recheckCpu();
      settled = true;
      sendFrameParts('{"type":"done","value":', encoded.parts, encoded.partCount, '}');
    }
    return exit(0);
  } catch (error) {
    return settleWithFailure(error);
  }
}

// Host frames come from the trusted side (the host checked every value it encodes), so plain JSON.parse
// suffices, falling back to the iterative parser only for values too deep for the native one.
function parseHostFrame(text: string): unknown {
  try {
    return parse(text) as unknown;
  } catch (error) {
    if (!FunctionPrototypeHasInstance(RangeErrorCtor, error)) return undefined;
    const deep = parseIterative(text);
    return deep.ok ? deep.value : undefined;
  }
}

// V8 flags set at run time (trace/log file paths) and trace_events open files below the permission model: the OS
// sandbox already confines where they could land, and the program loses both (a second layer, never the only one).
function disableRuntimeTracing(): void {
  const refuse = (what: string) => () => {
    throw new Error(`${what} is not available to model programs`);
  };
  for (const [target, name] of [
    [v8, 'setFlagsFromString'],
    [traceEvents, 'createTracing'],
    [traceEvents, 'getEnabledCategories'],
  ] as const) {
    ObjectDefineProperty(target, name, {
      value: refuse(`${name}()`),
      writable: false,
      configurable: false,
      enumerable: true,
    });
  }
}

function start(
  boot: BootFrame,
  onReply: (handler: ReplyHandler) => void,
  onChunkEnd: (flush: () => void) => void,
  onLost: (handler: (message: string) => void) => void,
): void {
  ledger = new OutputLedger(boot.maxOutputBytes);
  if (boot.cpuSeconds !== undefined) cpuLimitMicros = boot.cpuSeconds * 1_000_000;
  // the program sees an empty environment and its private temp dir as os.tmpdir()
  process.env = Object.create(null) as NodeJS.ProcessEnv;
  const tmpdir = boot.tmpdir;
  Object.defineProperty(os, 'tmpdir', { value: () => tmpdir, writable: true, configurable: true });
  if (boot.confined) disableRuntimeTracing();
  Module.syncBuiltinESMExports();
  // deterministic replays: frozen clock and seeded random values, installed before any model code runs
  if (boot.deterministic !== undefined) freezeNondeterminism(boot.deterministic);
  patchStream(process.stdout, stdoutLines);
  patchStream(process.stderr, stderrLines);
  // the streams exist now: plain properties instead of Node's lazy getters make `process.stdout.write(c)` in a hot
  // loop ~30% cheaper (read-only, as the getters were)
  for (const name of ['stdout', 'stderr'] as const) {
    Object.defineProperty(process, name, {
      value: process[name],
      writable: false,
      enumerable: true,
      configurable: true,
    });
  }
  processOn(
    'uncaughtException',
    withOwnApply((error: unknown) => settleWithFailure(error)),
  );
  processOn(
    'unhandledRejection',
    withOwnApply((reason: unknown) => settleWithFailure(reason)),
  );
  guardProcessEmit();
  const router = callRouter(boot.bindingsFd);
  const { objects, errorClasses, handleReply, flushOutbox, failPending } = createNamespaces(
    boot,
    (text) => router.send([text]),
    (texts) => router.send(texts),
  );
  onReply(handleReply);
  onChunkEnd(flushOutbox);
  onLost((message) => {
    router.lose();
    failPending(message);
  });
  if (boot.bindingsFd !== undefined) receiveHostReplies(boot.bindingsFd, parseHostFrame, handleReply, flushOutbox);
  // a console call ends the stream's pending line the way the terminal shows it: the written fragment, then the call
  const programConsole = createConsole((stream, text) => {
    (stream === 'stdout' ? stdoutLines : stderrLines).flushOpen();
    emitLog(stream, text);
  });
  const params = [...boot.namespaces.map((n) => n.global), ...errorClasses.map((c) => c.name), 'console'];
  let fn: (...args: unknown[]) => Promise<unknown>;
  try {
    const script = new ScriptCtor(`(async function (${params.join(', ')}) {'use strict';\n${boot.code}\n})`, {
      filename: 'program.ts',
      lineOffset: -1,
      // `await import('node:fs')` resolves like the main context (Node ≥ 20.12)
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    fn = script.runInThisContext() as typeof fn;
  } catch (error) {
    settleWithFailure(error);
  }
  // the captured `then`: the program's synchronous prefix has run by now and may have replaced Promise.prototype.then
  void PromisePrototypeThen(fn(...objects, ...errorClasses, programConsole), settleWithValue, settleWithFailure);
}

function main(): void {
  let replyHandler: ReplyHandler | undefined;
  let chunkEnd: (() => void) | undefined;
  let lostHandler: ((message: string) => void) | undefined;
  let booted = false;
  const channel = receiveFrames(
    (text) => {
      const frame = parseHostFrame(text) as { type?: unknown } | null | undefined;
      if (frame === null || typeof frame !== 'object') return;
      if (frame.type === 'boot' && !booted) {
        booted = true;
        start(
          frame as unknown as BootFrame,
          (h) => (replyHandler = h),
          (f) => (chunkEnd = f),
          (l) => (lostHandler = l),
        );
      } else if (frame.type === 'reply' && replyHandler !== undefined) {
        replyHandler(
          frame as { id: number; ok: boolean; value?: JsonValue; message?: string; code?: unknown; data?: unknown },
        );
      } else if (frame.type === 'bindings-lost' && lostHandler !== undefined) {
        const message = (frame as { message?: unknown }).message;
        lostHandler(typeof message === 'string' ? message : 'the bindings host is gone');
      }
    },
    // the host went away: nothing can observe this run any more
    () => exit(settled ? 0 : 70),
    () => chunkEnd?.(),
  );
  // confined (permission model on): no Unix-domain sockets either
  if ((process as { permission?: unknown }).permission !== undefined) denyUnixSockets(channel);
  sendFrame('{"type":"ready"}');
}

main();
