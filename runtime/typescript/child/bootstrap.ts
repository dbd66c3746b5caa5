// Entry of the fresh Node process that runs one model program; built to dist/runtime/node-child.cjs.
import Module from 'node:module';
import os from 'node:os';
import vm from 'node:vm';
import { checkLossless, encodeChecked, parseIterative } from '../../json/lossless.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import { OutputLedger, outputLimitMessage } from '../../output/ledger.js';
import { createConsole } from './console-shim.js';
import { receiveFrames, sendFrame, sendFrames } from './control.js';
import { describeThrown } from './describe-thrown.js';
import { LineBuffer } from './line-buffer.js';
import { denyUnixSockets } from './socket-guard.js';
import { createNamespaces, type ReplyHandler } from './namespaces.js';
import { freezeNondeterminism } from '../../replay/freeze-nondeterminism.js';

// Captured before any model code runs: the program shares this realm and may rebind globals.
const stringify = JSON.stringify;
// reallyExit skips 'exit' listeners the program may have added
const exit = ((process as unknown as { reallyExit: (code: number) => void }).reallyExit.bind(process)) as (code: number) => never;
const processOn = process.on.bind(process);
const ScriptCtor = vm.Script;

let settled = false;
let ledger: OutputLedger | undefined;
const stdoutLines = new LineBuffer((line) => emitLog('stdout', line), () => remainingBudget());
const stderrLines = new LineBuffer((line) => emitLog('stderr', line), () => remainingBudget());

function remainingBudget(): number {
  return ledger === undefined ? Number.MAX_SAFE_INTEGER : ledger.maxBytes - ledger.used;
}

function emitLog(stream: 'stdout' | 'stderr', text: string): void {
  if (settled || ledger === undefined) return;
  const before = ledger.entries.length;
  const fitted = ledger.addLog(text, stream);
  const added = ledger.entries[before];
  if (added !== undefined) sendFrame(stringify({ type: 'log', stream, text: added.text }));
  if (!fitted) finish({ type: 'done', error: { kind: 'output-limit', message: outputLimitMessage(ledger.maxBytes) } });
}

function finish(frame: Record<string, unknown>): never {
  return finishWithText(stringify(frame));
}

function finishWithText(text: string): never {
  if (!settled) {
    settled = true;
    sendFrame(text);
  }
  return exit(0);
}

// Stream writes (process.stdout.write and friends) become line-buffered log entries.
function patchStream(stream: NodeJS.WriteStream, lines: LineBuffer): void {
  const write = (chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
    const cb = typeof encoding === 'function' ? encoding : callback;
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    lines.write(text);
    if (typeof cb === 'function') queueMicrotask(() => (cb as () => void)());
    return true;
  };
  Object.defineProperty(stream, 'write', { value: write, writable: true, configurable: true });
  // opening the stream made the pipe non-blocking; raw fs.writeSync(1|2) from the program would then fail with
  // EAGAIN or write short instead of waiting for the host to read (hostile corpus: native floods)
  (stream as unknown as { _handle?: { setBlocking?: (on: boolean) => unknown } })._handle?.setBlocking?.(true);
}

function settleWithFailure(thrown: unknown): never {
  const failure = describeThrown(thrown);
  stdoutLines.flush();
  stderrLines.flush();
  const l = ledger as OutputLedger;
  const text = stringify({ type: 'done', error: { kind: 'exception', message: failure.message, ...(failure.location ? { location: failure.location } : {}) } });
  if (!l.fits(Buffer.byteLength(stringify(failure.message)))) {
    finish({ type: 'done', error: { kind: 'output-limit', message: outputLimitMessage(l.maxBytes) } });
  }
  finishWithText(text);
}

function settleWithValue(value: unknown): never {
  stdoutLines.flush();
  stderrLines.flush();
  const l = ledger as OutputLedger;
  if (value === undefined) finish({ type: 'done' });
  const check = checkLossless(value);
  if (!check.ok) {
    finish({ type: 'done', error: { kind: 'invalid-output', message: `program completion must be lossless JSON: ${check.reason}` } });
  }
  const text = encodeChecked(value as JsonValue, check.depth);
  if (!l.fits(Buffer.byteLength(text))) {
    finish({ type: 'done', error: { kind: 'output-limit', message: outputLimitMessage(l.maxBytes) } });
  }
  finishWithText(`{"type":"done","value":${text}}`);
}

// Host frames come from the trusted side (the host checked every value it encodes), so plain JSON.parse
// suffices, falling back to the iterative parser only for values too deep for the native one.
const parse = JSON.parse;
const RangeErrorCtor = RangeError;
function parseHostFrame(text: string): unknown {
  try {
    return parse(text) as unknown;
  } catch (error) {
    if (!(error instanceof RangeErrorCtor)) return undefined;
    const deep = parseIterative(text);
    return deep.ok ? deep.value : undefined;
  }
}

function start(boot: BootFrame, onReply: (handler: ReplyHandler) => void, onChunkEnd: (flush: () => void) => void): void {
  ledger = new OutputLedger(boot.maxOutputBytes);
  // the program sees an empty environment and its private temp dir as os.tmpdir()
  process.env = Object.create(null) as NodeJS.ProcessEnv;
  const tmpdir = boot.tmpdir;
  Object.defineProperty(os, 'tmpdir', { value: () => tmpdir, writable: true, configurable: true });
  Module.syncBuiltinESMExports();
  // deterministic replays: frozen clock and seeded random values, installed before any model code runs
  if (boot.deterministic !== undefined) freezeNondeterminism(boot.deterministic);
  patchStream(process.stdout, stdoutLines);
  patchStream(process.stderr, stderrLines);
  // the streams exist now: plain properties instead of Node's lazy getters make `process.stdout.write(c)` in a hot
  // loop ~30% cheaper (read-only, as the getters were)
  for (const name of ['stdout', 'stderr'] as const) {
    Object.defineProperty(process, name, { value: process[name], writable: false, enumerable: true, configurable: true });
  }
  processOn('uncaughtException', (error: unknown) => settleWithFailure(error));
  processOn('unhandledRejection', (reason: unknown) => settleWithFailure(reason));
  const { objects, errorClasses, handleReply, flushOutbox } = createNamespaces(boot, (text) => sendFrame(text), (texts) => sendFrames(texts));
  onReply(handleReply);
  onChunkEnd(flushOutbox);
  const programConsole = createConsole((stream, text) => emitLog(stream, text));
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
  fn(...objects, ...errorClasses, programConsole).then(settleWithValue, settleWithFailure);
}

function main(): void {
  let replyHandler: ReplyHandler | undefined;
  let chunkEnd: (() => void) | undefined;
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
        );
      } else if (frame.type === 'reply' && replyHandler !== undefined) {
        replyHandler(frame as { id: number; ok: boolean; value?: JsonValue; message?: string });
      }
    },
    // the host went away: nothing can observe this run any more
    () => exit(settled ? 0 : 70),
    () => chunkEnd?.(),
  );
  // confined (permission model on): no Unix-domain sockets either
  if ((process as { permission?: unknown }).permission !== undefined) denyUnixSockets(channel);
  sendFrame(stringify({ type: 'ready' }));
}

main();
