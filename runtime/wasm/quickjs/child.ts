// Entry of the quickjs engine's child process (built to dist/runtime/quickjs-child.cjs): a Node process like the
// native engine's child, on the same wire (node-wire.ts), that runs the program inside a fresh QuickJS context
// compiled to WebAssembly. The guest sees only QuickJS's own intrinsics and what guest-prelude.ts gives it; the host
// side here holds the bindings bridge, the output ledger and the limits.
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core';
import * as variantModule from '@jitl/quickjs-singlefile-cjs-release-sync';
import { decodeLossless, encodeWithin } from '../../json/lossless.js';
import type { BootFrame } from '../../protocol/node-wire.js';
import { OutputLedger, outputLimitMessage } from '../../output/ledger.js';
import { createConsole } from '../../typescript/child/console-shim.js';
import {
  callRouter,
  errorFrame,
  receiveFrames,
  receiveHostReplies,
  sendFrame,
  sendFrameParts,
  sendLogFrame,
} from '../../typescript/child/control.js';
import { describeThrown } from '../../typescript/child/describe-thrown.js';
import { createNamespaces, type ReplyHandler } from '../../typescript/child/namespaces.js';
import { rebuild } from './console-values.js';
import { GUEST_PRELUDE } from './guest-prelude.js';
import { guestFailure } from './guest-failure.js';

// QuickJS's own stack bound (its C stack inside the wasm module's 5 MiB shadow stack): deep recursion ends as a
// catchable InternalError long before the module itself could overflow.
// (Node's own stack holds the wasm frames: at 1 MiB V8 overflowed first, at 256 KiB QuickJS always does)
const STACK_BYTES = 256 * 1024;
// between interrupt checks QuickJS runs ~10 000 bytecode ops: the deadline is read there
const MiB = 1024 * 1024;

let settled = false;
let ledger: OutputLedger | undefined;

function finishWithText(text: string): never {
  if (!settled) {
    settled = true;
    sendFrame(text);
  }
  return process.exit(0);
}

function finishWithError(kind: string, message: string, location?: { line: number; column?: number }): never {
  return finishWithText(errorFrame(kind, message, location));
}

function emitLog(stream: 'stdout' | 'stderr', text: string): void {
  if (settled || ledger === undefined) return;
  const admitted = ledger.admit(text, stream, false);
  if (admitted.text !== undefined) sendLogFrame(stream, admitted.text, false);
  if (!admitted.fitted) finishWithError('output-limit', outputLimitMessage(ledger.maxBytes));
}

interface Guest {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  // the prelude's function of the host entry points (guest-prelude.ts)
  prelude: QuickJSHandle;
}

// Loaded before `ready`: a spare holds a compiled module and an empty context, so a run starts at the program.
async function loadGuest(): Promise<Guest> {
  // a CommonJS module whose `default` is the variant (as bundled here and as loaded by Node)
  const variant = (variantModule as unknown as { default: QuickJSSyncVariant }).default;
  const module = await newQuickJSWASMModuleFromVariant(variant);
  const runtime = module.newRuntime();
  runtime.setMaxStackSize(STACK_BYTES);
  // no module loader answers: import() of anything fails with a message naming the engine
  runtime.setModuleLoader((name) => ({
    error: new Error(
      `import(${JSON.stringify(name)}) is not available in the quickjs engine (no modules or Node built-ins)`,
    ),
  }));
  const context = runtime.newContext();
  const prelude = context.unwrapResult(context.evalCode(GUEST_PRELUDE, 'ptc-prelude.js'));
  return { runtime, context, prelude };
}

function start(
  guest: Guest,
  boot: BootFrame,
  onReply: (handler: ReplyHandler) => void,
  onLost: (handler: (message: string) => void) => void,
): void {
  const { runtime, context: vm } = guest;
  ledger = new OutputLedger(boot.maxOutputBytes);
  const memoryMb = boot.memoryMb;
  const timeoutMs = boot.timeoutMs;
  if (memoryMb !== undefined) runtime.setMemoryLimit(memoryMb * MiB);
  let deadlineAt = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  runtime.setInterruptHandler(() => Date.now() >= deadlineAt);
  const limits = { timeoutMs, memoryMb };
  const fail = (thrownJson: string): void => {
    const failure = guestFailure(thrownJson, limits);
    // interrupted at the deadline: the guest stops here and the host's own deadline ends the run (kind timeout)
    if (failure.kind === 'timeout') {
      settled = true;
      return;
    }
    finishWithError(failure.kind, failure.message, failure.location);
  };
  // a thrown guest value, described with the memory limit lifted: an out-of-memory error must still be rendered
  // QuickJS ends a program out of memory with whatever it could still allocate (often `null`): the heap says which
  const outOfMemory = (): boolean => {
    if (memoryMb === undefined) return false;
    runtime.setMemoryLimit(-1);
    const usage = runtime.computeMemoryUsage();
    const used = (vm.dump(usage) as { malloc_size?: unknown }).malloc_size;
    usage.dispose();
    runtime.setMemoryLimit(memoryMb * MiB);
    return typeof used === 'number' && used >= memoryMb * MiB - MiB;
  };
  const outOfMemoryMessage = `InternalError: out of memory: the program reached the quickjs engine's heap limit (memoryMb ${String(memoryMb)})`;
  // Nothing left that could wake the program: out of memory, QuickJS may have failed to even queue the rejection that
  // would settle it (a program awaiting a promise that never resolves waits for the deadline, as on Node).
  const stalled = (): void => {
    if (outOfMemory()) finishWithError('exception', outOfMemoryMessage);
  };
  const failWith = (handle: QuickJSHandle): void => {
    if (outOfMemory()) finishWithError('exception', outOfMemoryMessage);
    runtime.setMemoryLimit(-1);
    const text = thrownText(handle);
    handle.dispose();
    fail(text);
  };

  const router = callRouter(boot.bindingsFd);
  const { objects, handleReply, flushOutbox, failPending } = createNamespaces(
    boot,
    (text) => router.send([text]),
    (texts) => router.send(texts),
  );
  // a call that waited for a person's decision says how long: the deadline stood still meanwhile (as the runtime's)
  const onHostReply: typeof handleReply = (reply) => {
    const paused = (reply as { pausedMs?: unknown }).pausedMs;
    if (typeof paused === 'number' && Number.isFinite(paused) && paused > 0) deadlineAt += paused;
    handleReply(reply);
  };
  onReply((reply) => {
    onHostReply(reply);
    flushOutbox();
  });
  onLost((message) => {
    router.lose();
    failPending(message);
  });
  if (boot.bindingsFd !== undefined) {
    const parse = (text: string): unknown => {
      const decoded = decodeLossless(text);
      return decoded.ok ? decoded.value : undefined;
    };
    receiveHostReplies(boot.bindingsFd, parse, onHostReply, flushOutbox);
  }

  // Runs the guest's ready jobs (promise reactions) until none is left; a job that fails ends the run.
  let callsOut = 0;
  const timers = new Map<number, NodeJS.Timeout>();
  const pump = (): void => {
    try {
      pumpJobs();
      if (!settled && callsOut === 0 && timers.size === 0) stalled();
    } catch (error) {
      // the wasm module itself trapped (its memory or stack exhausted below QuickJS's own checks)
      finishWithError(
        'exception',
        `the quickjs engine stopped: ${String((error as Error)?.message ?? error)} (memoryMb ${String(memoryMb)})`,
      );
    }
  };
  const pumpJobs = (): void => {
    while (!settled) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error !== undefined) return failWith(jobs.error);
      if (jobs.value === 0) return;
    }
  };
  const thrownText = (handle: QuickJSHandle): string => {
    const describe = vm.getProp(api, 'thrownText');
    const result = vm.callFunction(describe, vm.undefined, handle);
    describe.dispose();
    if (result.error !== undefined) {
      result.error.dispose();
      return '{"error":false,"text":"an unrenderable value"}';
    }
    const text = vm.getString(result.value);
    result.value.dispose();
    return text;
  };

  const hostConsole = createConsole(emitLog);
  const byGlobal = new Map(
    boot.namespaces.map((ns, index) => [
      ns.global,
      objects[index] as Record<string, (args: unknown) => Promise<unknown>>,
    ]),
  );
  const host = vm.newObject();
  const entry = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined): void => {
    const handle = vm.newFunction(name, fn);
    vm.setProp(host, name, handle);
    handle.dispose();
  };
  entry('call', (globalHandle, nameHandle, argsHandle) => {
    const global = vm.getString(globalHandle);
    const name = vm.getString(nameHandle);
    const decoded = decodeLossless(vm.getString(argsHandle));
    const deferred = vm.newPromise();
    const fn = byGlobal.get(global)?.[name];
    callsOut++;
    const answer = (text: string): void => {
      callsOut--;
      if (settled || !deferred.alive) return;
      const reply = vm.newString(text);
      deferred.resolve(reply);
      reply.dispose();
      deferred.dispose();
      pump();
    };
    if (fn === undefined || !decoded.ok)
      answer(
        JSON.stringify({ ok: false, message: `${global}.${name}: ${decoded.ok ? 'no such binding' : decoded.reason}` }),
      );
    else
      fn(decoded.value).then(
        (value) => answer(value === undefined ? '{"ok":true}' : `{"ok":true,"value":${JSON.stringify(value)}}`),
        (error: { message?: unknown; code?: unknown; data?: unknown }) =>
          answer(
            JSON.stringify({
              ok: false,
              message: String(error?.message ?? 'binding failed'),
              code: error?.code,
              data: error?.data,
            }),
          ),
      );
    return deferred.handle;
  });
  entry('log', (streamHandle, itemsHandle) => {
    const stream = vm.getString(streamHandle);
    const decoded = decodeLossless(vm.getString(itemsHandle));
    const items =
      decoded.ok && Array.isArray(decoded.value)
        ? decoded.value.map(rebuild)
        : ['[console arguments could not be read]'];
    (stream === 'stderr' ? hostConsole.error : hostConsole.log)(...items);
    return undefined;
  });
  entry('settle', (kindHandle, payload) => {
    const kind = vm.getString(kindHandle);
    // what the program threw comes as the value itself, described here (with the memory limit lifted)
    if (kind === 'error') return void failWith(payload.dup());
    const text = vm.getString(payload);
    if (kind === 'undefined') finishWithText('{"type":"done"}');
    if (kind === 'lossy') finishWithError('invalid-output', `program completion must be lossless JSON: ${text}`);
    settleValue(text);
    return undefined;
  });
  entry('timer', (idHandle, msHandle) => {
    const id = vm.getNumber(idHandle);
    const timer = setTimeout(
      () => {
        timers.delete(id);
        const fire = vm.getProp(api, 'fireTimer');
        const idArg = vm.newNumber(id);
        const result = vm.callFunction(fire, vm.undefined, idArg);
        fire.dispose();
        idArg.dispose();
        if (result.error !== undefined) failWith(result.error);
        else result.value.dispose();
        pump();
      },
      Math.min(vm.getNumber(msHandle), 2 ** 31 - 1),
    );
    timers.set(id, timer);
    return undefined;
  });
  entry('clearTimer', (idHandle) => {
    const id = vm.getNumber(idHandle);
    clearTimeout(timers.get(id));
    timers.delete(id);
    return undefined;
  });

  const namespaces = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(boot.namespaces)})`, 'ptc-namespaces.js'));
  const deterministic = vm.unwrapResult(
    vm.evalCode(`(${JSON.stringify(boot.deterministic ?? null)})`, 'ptc-settings.js'),
  );
  const installed = vm.callFunction(guest.prelude, vm.undefined, host, namespaces, deterministic);
  host.dispose();
  namespaces.dispose();
  deterministic.dispose();
  const api = vm.unwrapResult(installed);

  const errorClassNames = boot.namespaces.flatMap((ns) => (ns.errorClass === undefined ? [] : [ns.errorClass.name]));
  const params = [...boot.namespaces.map((ns) => ns.global), ...errorClassNames, 'console'];
  // the program's first line is line 2 of this text: guest-failure.ts moves every location back by one
  const compiled = vm.evalCode(`(async function (${params.join(', ')}) {'use strict';\n${boot.code}\n})`, 'program.ts');
  if (compiled.error !== undefined) return failWith(compiled.error);
  const run = vm.getProp(api, 'run');
  const started = vm.callFunction(run, vm.undefined, compiled.value);
  if (started.error !== undefined) return failWith(started.error);
  pump();
}

function settleValue(text: string): never {
  const l = ledger as OutputLedger;
  const decoded = decodeLossless(text);
  if (!decoded.ok)
    return finishWithError('invalid-output', `program completion must be lossless JSON: ${decoded.reason}`);
  const encoded = encodeWithin(decoded.value, l.maxBytes - l.used);
  if (!encoded.ok)
    return finishWithError(
      encoded.kind === 'lossy' ? 'invalid-output' : 'output-limit',
      encoded.kind === 'lossy' ? encoded.reason : outputLimitMessage(l.maxBytes),
    );
  if (!settled) {
    settled = true;
    sendFrameParts('{"type":"done","value":', encoded.parts, encoded.partCount, '}');
  }
  return process.exit(0);
}

async function main(): Promise<void> {
  const guest = await loadGuest();
  let replyHandler: ReplyHandler | undefined;
  let lostHandler: ((message: string) => void) | undefined;
  let booted = false;
  receiveFrames(
    (text) => {
      const decoded = decodeLossless(text);
      if (!decoded.ok || decoded.value === null || typeof decoded.value !== 'object') return;
      const frame = decoded.value as { type?: unknown; message?: unknown };
      if (frame.type === 'boot' && !booted) {
        booted = true;
        try {
          start(
            guest,
            frame as unknown as BootFrame,
            (h) => (replyHandler = h),
            (l) => (lostHandler = l),
          );
        } catch (error) {
          // the engine itself failed (a trap below QuickJS's own checks): still one result, naming the engine (a done
          // frame carries exception, invalid-output or output-limit only)
          finishWithError('exception', `the quickjs engine failed: ${describeThrown(error).message}`);
        }
      } else if (frame.type === 'reply' && replyHandler !== undefined) {
        replyHandler(frame as unknown as Parameters<ReplyHandler>[0]);
      } else if (frame.type === 'bindings-lost' && lostHandler !== undefined) {
        lostHandler(typeof frame.message === 'string' ? frame.message : 'the bindings host is gone');
      }
    },
    () => process.exit(settled ? 0 : 70),
  );
  sendFrame('{"type":"ready"}');
}

void main().catch((error: unknown) => {
  process.stderr.write(`the quickjs engine could not start: ${String(error)}\n`);
  process.exit(70);
});
