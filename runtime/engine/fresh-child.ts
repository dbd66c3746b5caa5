import type { CodeRunSpec } from '../api.js';
import type { RunResult, SandboxReport } from '../protocol/run-result.js';
import { abortMessage, failedBeforeSpawn } from './early-results.js';
import { RunSession } from './run-session.js';
import type { Spare, SpareKey, SparePool } from './spare-pool.js';

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
  supervise: (session: RunSession, child: C) => Promise<RunResult>;
}

// Runs on a never-used child, identically for both backends: a spare launched with the same settings, or a cold
// start; the child is discarded after its one run and the pool refilled once the run has its result.
export async function runOnFreshChild<C extends Spare>(run: FreshChildRun<C>): Promise<RunResult> {
  const { spec, spares } = run;
  const session = new RunSession(spec, run.report);
  // a cold start (and the spare after it) inherit a ready connection to the run's bindings host
  await spec.hosted?.prepare();
  let child = await spares?.take(run.key, spec.signal);
  if (spec.signal?.aborted) {
    // aborted just after a spare was handed over: it never ran anything, but it serves nobody now
    if (child !== undefined) {
      await child.discard();
      spares?.refill(run.key, run.startSpare);
    }
    return failedBeforeSpawn(spec, run.report, { kind: 'abort', message: abortMessage(spec.signal) });
  }
  if (child === undefined) {
    try {
      child = run.startCold();
    } catch (error) {
      session.fail({ kind: 'worker-exit', message: `${run.coldStartProblem}: ${(error as Error).message}` });
      return session.result();
    }
  }
  try {
    return await run.supervise(session, child);
  } finally {
    await child.discard();
    spares?.refill(run.key, run.startSpare);
  }
}
