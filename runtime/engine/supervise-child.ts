import type { Readable } from 'node:stream';
import type { CodeRunSpec } from '../api.js';
import { LIMITS } from '../contract/limits.js';
import { captureLines } from '../output/pipe-lines.js';
import { decodeShimExit, type ExitInfo } from '../process/launch.js';
import type { CallDispatcher } from '../bindings/dispatcher.js';
import type { RunFailure, RunResult } from '../protocol/run-result.js';
import { armDeadline } from './deadline.js';
import { connectRun, type ChildWire, type ConnectedChild } from './program-frames.js';
import { markPhase } from './phase-marks.js';
import { abortMessage } from './early-results.js';
import type { RunState } from './run-state.js';
import { within } from '../process/timers.js';

// What both backends' child wrappers offer the supervisor.
export interface SupervisedChild {
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly closed: Promise<ExitInfo>;
  readonly spawnError: Promise<Error>;
  readonly viaShim: boolean;
  killTree(): void;
  // the run's cgroup memory bound in bytes, when the kernel ended the run for reaching it
  memoryBoundReached(): number | undefined;
}

export interface SuperviseRunOptions {
  spec: CodeRunSpec;
  session: RunState;
  child: SupervisedChild & ConnectedChild & { readonly ready: Promise<boolean> };
  wire: ChildWire;
  // the program as the child's wire sends it; `routed`: its calls go straight to the bindings host
  frame: (routed: boolean) => string;
  // the child got ready but said it cannot run the program (the CPython runner's boot ack)
  refused?: () => void;
  // 'Node' or 'Python', for messages
  runtimeName: string;
  // why a child that ended without `done` failed (exit code, signal, out of memory…)
  exitFailure: (exit: ExitInfo | undefined) => RunFailure;
}

// One run on a started child, the same steps for every backend: connect its frames, hand over the program once it is
// ready, and drive the run to its one result.
export function superviseRun(options: SuperviseRunOptions): Promise<RunResult> {
  const { spec, session, child } = options;
  const { dispatcher, send, routed } = connectRun({ session, child, ...options.wire });
  const handedOver = handOverWhenReady({
    session,
    ready: child.ready,
    frame: () => options.frame(routed),
    send,
    ...(options.refused === undefined ? {} : { refused: options.refused }),
  });
  return superviseLifecycle({
    spec,
    session,
    dispatcher,
    child,
    handedOver,
    runtimeName: options.runtimeName,
    exitFailure: options.exitFailure,
  });
}

// Sends the program (`frame`) once the child is ready and the run still open: a cold child is ready after attach, a
// spare before. Resolves whether it went out (the deadline starts then); `refused` hears of a child that never got
// ready.
function handOverWhenReady(options: {
  session: RunState;
  ready: Promise<boolean>;
  frame: () => string;
  send: (text: string) => void;
  refused?: () => void;
}): Promise<boolean> {
  const { session } = options;
  return options.ready.then((ok) => {
    if (session.outcome !== undefined) return false;
    if (!ok) {
      options.refused?.();
      return false;
    }
    session.markHandedOver();
    options.send(options.frame());
    return true;
  });
}

interface LifecycleOptions {
  spec: CodeRunSpec;
  session: RunState;
  dispatcher: CallDispatcher;
  child: SupervisedChild;
  // resolves true once the program was sent to the child (the deadline starts then)
  handedOver: Promise<boolean>;
  // 'Node' or 'Python', for messages
  runtimeName: string;
  // why a child that ended without `done` failed (exit code, signal, out of memory…)
  exitFailure: (exit: ExitInfo | undefined) => RunFailure;
}

// Drives one run to its end, identically for both backends: pipes into the ledger, deadline, abort, kill of the whole
// tree, a bounded wait for late output, then the one result.
async function superviseLifecycle(options: LifecycleOptions): Promise<RunResult> {
  const { spec, session, dispatcher, child } = options;
  const budget = (): number => session.ledger.maxBytes - session.ledger.used;
  const flushStdout = captureLines(child.stdout, budget, (line) => session.log('stdout', line));
  const flushStderr = captureLines(child.stderr, budget, (line) => session.log('stderr', line));

  const disarm = armDeadline(session, spec, options.handedOver, `the ${options.runtimeName} process`);
  const onAbort = (): void => session.fail({ kind: 'abort', message: abortMessage(spec.signal) });
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  // an abort during staging fired before the listener existed
  if (spec.signal?.aborted) onAbort();
  void child.spawnError.then((error) =>
    session.fail({ kind: 'worker-exit', message: `could not start ${options.runtimeName}: ${error.message}` }),
  );

  let exit: ExitInfo | undefined;
  const closed = child.closed.then((info) => {
    exit = decodeShimExit(info, child.viaShim);
  });
  await Promise.race([session.settled, closed]);
  disarm();
  spec.signal?.removeEventListener('abort', onAbort);
  // settled: kill now and wait (bounded) for the pipes to close, so late raw fd writes are in the logs;
  // exited on its own without `done`: pipes are closed, so every byte of output is already in
  child.killTree();
  if (session.outcome !== undefined) await within(closed, LIMITS.graceMs, undefined);
  markPhase(spec, 'exited');
  flushStdout();
  flushStderr();
  if (session.outcome === undefined)
    session.fail(withMemoryBound(options.exitFailure(exit), child.memoryBoundReached()));
  await dispatcher.drain(50);
  await Promise.all(session.finishing);
  return session.result();
}

// A child the kernel killed at its cgroup's bound says so: the bound covers its heap, its temp files and what the
// kernel holds for it, which no message of the interpreter's own names.
function withMemoryBound(failure: RunFailure, bound: number | undefined): RunFailure {
  if (bound === undefined || failure.kind !== 'worker-exit') return failure;
  const mib = Math.round(bound / (1024 * 1024));
  return {
    ...failure,
    message: `${failure.message}: the run reached its memory bound (${mib} MiB for the program, its temp files and what the kernel holds for it)`,
  };
}

// How a child's end reads in a message: `code 7` or `signal SIGKILL`.
export function describeExit(exit: ExitInfo | undefined): string {
  return exit?.signal ? `signal ${exit.signal}` : `code ${String(exit?.code)}`;
}
