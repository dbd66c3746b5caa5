// One run of the quickjs engine, whatever embeds it: a Node child (child.ts) or a browser's web worker
// (runtime/wasm/web/run-worker.ts). It needs nothing from Node: what it sends goes through `GuestIo`, and the
// embedding ends the guest once the settling frame is out. The guest sees only QuickJS's own intrinsics and what
// guest-prelude.ts gives it; this side holds the bindings bridge, the output ledger and the limits.
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
import { errorFrame } from '../../typescript/child/describe-thrown.js';
import { createNamespaces, type Reply } from '../../typescript/child/namespaces.js';
import { rebuild } from './console-values.js';
import { GUEST_PRELUDE } from './guest-prelude.js';
import { guestFailure } from './guest-failure.js';
import { errorMessage } from '../../output/error-message.js';

// QuickJS's own stack bound (its C stack inside the wasm module's 5 MiB shadow stack): deep recursion ends as a
// catchable InternalError long before the module itself could overflow.
// (Node's own stack holds the wasm frames: at 1 MiB V8 overflowed first, at 256 KiB QuickJS always does)
const STACK_BYTES = 256 * 1024;
// between interrupt checks QuickJS runs ~10 000 bytecode ops: the deadline is read there
const MiB = 1024 * 1024;

// How a run reaches its embedding. `finish` carries the run's one settling frame (as parts: a large value is never
// joined twice); after it the embedding ends the guest (the process exits, the worker closes).
export interface GuestIo {
  finish(head: string, parts?: readonly string[], count?: number, tail?: string): void;
  log(stream: 'stdout' | 'stderr', text: string): void;
  // call frames, in order (several at once when replies released queued calls)
  sendCalls(texts: string[]): void;
}

export interface Guest {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  // the prelude's function of the host entry points (guest-prelude.ts)
  prelude: QuickJSHandle;
}

// What the embedding feeds a started run: the host's replies to its calls, and the loss of the bindings host.
export interface GuestRun {
  reply(reply: Reply): void;
  // a reply that came on the bindings host's own connection (the embedding flushes after its chunk)
  handleReply(reply: Reply): void;
  flushOutbox(): void;
  lose(message: string): void;
}

// Loaded before the program arrives: a spare holds a compiled module and an empty context, so a run starts at the
// program.
export async function loadGuest(): Promise<Guest> {
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

// Starts the program of `boot` in `guest`; the run settles through `io.finish` exactly once (or, at the deadline, not
// at all: the host's own deadline ends it as a timeout).
export function startGuest(guest: Guest, boot: BootFrame, io: GuestIo): GuestRun {
  const { runtime, context: vm } = guest;
  const ledger = new OutputLedger(boot.maxOutputBytes);
  let settled = false;
  const finishWithText = (text: string): void => {
    if (settled) return;
    settled = true;
    io.finish(text);
  };
  const finishWithError = (kind: string, message: string, location?: { line: number; column?: number }): void =>
    finishWithText(errorFrame(kind, message, location));
  const emitLog = (stream: 'stdout' | 'stderr', text: string): void => {
    if (settled) return;
    const admitted = ledger.admit(text, stream, false);
    if (admitted.text !== undefined) io.log(stream, admitted.text);
    if (!admitted.fitted) finishWithError('output-limit', outputLimitMessage(ledger.maxBytes));
  };
  const settleValue = (text: string): void => {
    const decoded = decodeLossless(text);
    if (!decoded.ok)
      return finishWithError('invalid-output', `program completion must be lossless JSON: ${decoded.reason}`);
    const encoded = encodeWithin(decoded.value, ledger.maxBytes - ledger.used);
    if (!encoded.ok)
      return finishWithError(
        encoded.kind === 'lossy' ? 'invalid-output' : 'output-limit',
        encoded.kind === 'lossy' ? encoded.reason : outputLimitMessage(ledger.maxBytes),
      );
    if (settled) return;
    settled = true;
    io.finish('{"type":"done","value":', encoded.parts, encoded.partCount, '}');
  };

  const memoryMb = boot.memoryMb;
  const timeoutMs = boot.timeoutMs;
  if (memoryMb !== undefined) runtime.setMemoryLimit(memoryMb * MiB);
  let deadlineAt = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  // settled, the guest stops at its next check: an embedding that cannot exit at once (a worker) never runs it on
  runtime.setInterruptHandler(() => settled || Date.now() >= deadlineAt);
  const limits = { timeoutMs, memoryMb };
  const fail = (thrownJson: string): void => {
    const failure = guestFailure(thrownJson, limits, { code: boot.code, headerLines: 1 });
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

  const { objects, handleReply, flushOutbox, failPending } = createNamespaces(
    boot,
    (text) => io.sendCalls([text]),
    (texts) => io.sendCalls(texts),
  );

  // Runs the guest's ready jobs (promise reactions) until none is left; a job that fails ends the run.
  let callsOut = 0;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const pump = (): void => {
    try {
      pumpJobs();
      if (!settled && callsOut === 0 && timers.size === 0) stalled();
    } catch (error) {
      // the wasm module itself trapped (its memory or stack exhausted below QuickJS's own checks)
      finishWithError('exception', `the quickjs engine stopped: ${errorMessage(error)} (memoryMb ${String(memoryMb)})`);
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
    else if (kind === 'lossy') finishWithError('invalid-output', `program completion must be lossless JSON: ${text}`);
    else settleValue(text);
    return undefined;
  });
  entry('timer', (idHandle, msHandle) => {
    const id = vm.getNumber(idHandle);
    const timer = setTimeout(
      () => {
        timers.delete(id);
        if (settled) return;
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

  // a call that waited for a person's decision says how long: the deadline stood still meanwhile (as the runtime's)
  const onHostReply: typeof handleReply = (reply) => {
    const paused = (reply as { pausedMs?: unknown }).pausedMs;
    if (typeof paused === 'number' && Number.isFinite(paused) && paused > 0) deadlineAt += paused;
    handleReply(reply);
  };
  const run: GuestRun = {
    reply: (reply) => {
      onHostReply(reply);
      flushOutbox();
    },
    handleReply: onHostReply,
    flushOutbox,
    lose: failPending,
  };
  const errorClassNames = boot.namespaces.flatMap((ns) => (ns.errorClass === undefined ? [] : [ns.errorClass.name]));
  const params = [...boot.namespaces.map((ns) => ns.global), ...errorClassNames, 'console'];
  // the program's first line is line 2 of this text: guest-failure.ts moves every location back by one (headerLines)
  const compiled = vm.evalCode(`(async function (${params.join(', ')}) {'use strict';\n${boot.code}\n})`, 'program.ts');
  if (compiled.error !== undefined) {
    failWith(compiled.error);
    return run;
  }
  const runFn = vm.getProp(api, 'run');
  const started = vm.callFunction(runFn, vm.undefined, compiled.value);
  if (started.error !== undefined) {
    failWith(started.error);
    return run;
  }
  pump();
  return run;
}
