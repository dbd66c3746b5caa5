import { inheritedLimits } from '../process/inherited-limits.js';
import type { CodeRunSpec } from '../api.js';
import { LIMITS } from '../contract/limits.js';
import type { HostedBindings } from '../protocol/hosted-bindings.js';
import type { RunResult, SandboxReport } from '../protocol/run-result.js';
import { abortMessage, failedBeforeSpawn } from './early-results.js';
import { markPhase } from './phase-marks.js';
import { RunState } from './run-state.js';
import type { Spare } from '../process/spare.js';
import type { SpareKey, SparePool } from './spare-pool.js';
import { errorMessage } from '../output/error-message.js';
import { within } from '../process/timers.js';

// A start function for a child of a hosted run that refuses (throws) rather than start a child without its own
// connection to the host: such a child could never reach a handler, and every call of the run it later served would
// fail with "bindings host is not running" (spares started in one turn used to drain the stock of connections).
export function withChannel<C>(hosted: HostedBindings | undefined, start: () => C): () => C {
  return () => {
    if (hosted !== undefined && !hosted.channelReady()) throw new Error('no connection to the bindings host is ready');
    return start();
  };
}

export interface FreshChildRun<C extends Spare> {
  spec: CodeRunSpec;
  report: SandboxReport;
  spares: SparePool<C> | undefined;
  key: SpareKey;
  // a cold start for this run; throws only when its private dir cannot be made
  startCold: () => C;
  // a replacement spare (may preload more than a cold start needs)
  startSpare: () => C;
  // what a failed cold start means, e.g. "could not stage the Python runner"
  coldStartProblem: string;
  supervise: (session: RunState, child: C) => Promise<RunResult>;
}

// An allocation failing while a child is staged is usually this process's own inherited RLIMIT_AS: it is named.
function addressSpaceHint(): string {
  const limit = inheritedLimits().addressSpaceBytes;
  return limit === undefined
    ? ''
    : ` (this process inherited an address-space limit, RLIMIT_AS ${Math.floor(limit / (1024 * 1024))} MiB)`;
}

// Connection attempts a cold start of a hosted run makes before it fails (each ends connected or refused).
const CHANNEL_ATTEMPTS = 5;

// How long a run runs before its replacement spare starts beside it (see runOnFreshChild).
export const REFILL_AFTER_MS = 25;

// Teardowns still going on after their run returned its result (see runOnFreshChild); dispose() waits for them.
const teardowns = new Set<Promise<void>>();

export function pendingTeardowns(): Promise<void> {
  return Promise.allSettled([...teardowns]).then(() => undefined);
}

// Runs on a never-used child, identically for both backends: a spare launched with the same settings, or a cold
// start; the pool is refilled as the run begins (and again after its teardown), the child discarded after its one run.
export async function runOnFreshChild<C extends Spare>(run: FreshChildRun<C>): Promise<RunResult> {
  const { spec, spares } = run;
  const session = new RunState(spec, run.report);
  // a spare of a hosted run must hold its own connection to the host (see withChannel): none ready, no spare
  const startSpare = withChannel(spec.hosted, () => {
    markPhase(spec, 'refill-started');
    const spare = run.startSpare();
    void spare.ready.then(() => markPhase(spec, 'refill-ready'));
    return spare;
  });
  // a cold start (and the spare after it) inherit a ready connection to the run's bindings host
  await spec.hosted?.prepare();
  let child = await spares?.take(run.key, spec.signal);
  if (spec.signal?.aborted) {
    // aborted just after a spare was handed over: it never ran anything, but it serves nobody now
    if (child !== undefined) {
      await child.discard();
      spares?.refill(run.key, startSpare);
    }
    return failedBeforeSpawn(spec, run.report, { kind: 'abort', message: abortMessage(spec.signal) });
  }
  if (child === undefined) {
    // spares starting meanwhile may have taken the connection prepared above: a cold start waits for its own (checked
    // and taken in one synchronous stretch: another run's continuation could take it between two awaits)
    const hosted = spec.hosted;
    for (let attempt = 0; hosted !== undefined && !hosted.channelReady() && attempt < CHANNEL_ATTEMPTS; attempt++)
      await hosted.prepare();
    if (hosted !== undefined && !hosted.channelReady()) {
      session.fail({
        kind: 'worker-exit',
        message: 'could not connect to the bindings host (its socket refused every connection)',
      });
      return session.result();
    }
    try {
      child = run.startCold();
    } catch (error) {
      session.fail({
        kind: 'worker-exit',
        message: `${run.coldStartProblem}: ${errorMessage(error)}${addressSpaceHint()}`,
      });
      return session.result();
    }
  }
  const owned = child;
  markPhase(spec, 'taken');
  // The replacement starts once this run has its result, or once it has run REFILL_AFTER_MS, whichever comes first: a
  // spare starting beside a short program competes with it for the CPU (on two cores it tripled a trivial run's
  // program phase), while a longer program leaves the spare time to get ready before the next run. Started only after
  // the teardown, a spare's whole start-up was on the next run's path.
  let refilled = false;
  const refill = (): void => {
    if (refilled) return;
    refilled = true;
    spares?.refill(run.key, startSpare);
  };
  const early = spares === undefined ? undefined : setTimeout(refill, REFILL_AFTER_MS);
  early?.unref();
  try {
    const result = await run.supervise(session, owned);
    if (result.startupMs !== undefined) markPhase(spec, 'handed-over', session.startedAt + result.startupMs);
    if (session.settledAt !== undefined) markPhase(spec, 'settled', session.settledAt);
    return result;
  } finally {
    clearTimeout(early);
    // The result waits only for the kill and the pipes' close, bounded by one grace period after the outcome counting
    // the supervisor's own wait for late output; removing the private dir and the cgroup happens after the result
    // (pendingTeardowns() and the runtime's dispose() await it), as it cost a spare-ready run more than its program.
    const teardown = owned.discard().then(() => {
      markPhase(spec, 'discarded');
      spares?.refill(run.key, startSpare);
    });
    teardowns.add(teardown);
    void teardown.finally(() => teardowns.delete(teardown));
    const left = LIMITS.graceMs - (performance.now() - (session.settledAt ?? performance.now()));
    if (left > 0) await within(owned.stop(), left, undefined);
    markPhase(spec, 'result');
    // the pool starts it on a later turn, after the caller's continuation took the result (spawning blocks this loop)
    refill();
  }
}
