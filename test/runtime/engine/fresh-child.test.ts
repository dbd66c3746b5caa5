import diagnostics_channel from 'node:diagnostics_channel';
import { describe, expect, test } from 'vitest';
import { RUN_PHASE_CHANNEL, type RunPhase, type RunPhaseMark } from '../../../runtime/engine/phase-marks.js';
import { pendingTeardowns, REFILL_AFTER_MS, runOnFreshChild } from '../../../runtime/engine/fresh-child.js';
import type { Spare } from '../../../runtime/process/spare.js';
import { createRuntime } from '../../../runtime/index.js';
import { LIMITS } from '../../../runtime/contract/limits.js';
import { eventually } from '../../helpers/eventually.js';

// The run sequence on its own, with a scripted child whose teardown the test controls (a child slow to die: a loaded
// machine, pipes held open); real processes are covered by every backend test.
class StuckChild implements Spare {
  readonly pid = undefined;
  readonly ready = Promise.resolve(true);
  discardStarted = false;
  discardDone = false;
  #release: () => void = () => undefined;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));

  // `stuckAt`: which step of the teardown waits for release(): the kill itself, or only the removal after it
  constructor(readonly stuckAt: 'stop' | 'removal') {}

  alive(): boolean {
    return !this.discardDone;
  }

  async stop(): Promise<void> {
    if (this.stuckAt === 'stop') await this.#released;
  }

  async discard(): Promise<void> {
    this.discardStarted = true;
    await this.stop();
    await this.#released;
    this.discardDone = true;
  }

  release(): void {
    this.#release();
  }
}

function runOn(runtime: ReturnType<typeof createRuntime>, child: StuckChild) {
  const spec = runtime.resolve({ language: 'typescript', program: 'return 1' });
  return runOnFreshChild({
    spec,
    report: { network: 'allowed', filesystem: 'allowed', childProcess: 'allowed', enforcement: 'none', mechanisms: [] },
    spares: undefined,
    key: { language: 'typescript', config: 'stuck' },
    startCold: () => child,
    startSpare: () => child,
    coldStartProblem: 'unused',
    supervise: async (session) => {
      session.fail({ kind: 'timeout', message: 'execution deadline reached (1ms)' });
      return session.result();
    },
  });
}

describe('runOnFreshChild', () => {
  test('the result does not wait for a teardown that outlasts the grace period; dispose waits for it', async () => {
    const runtime = createRuntime();
    const child = new StuckChild('stop');
    const result = await runOn(runtime, child);
    expect(result.error?.kind).toBe('timeout');
    // the teardown began and is still going on: the result did not wait for it
    expect(child.discardStarted).toBe(true);
    expect(child.discardDone).toBe(false);
    let disposed = false;
    const disposing = runtime.dispose().then(() => (disposed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(disposed).toBe(false);
    child.release();
    await disposing;
    expect(child.discardDone).toBe(true);
    await pendingTeardowns();
  });

  test('once the child is stopped the result does not wait for its private dir and cgroup to go', async () => {
    const runtime = createRuntime();
    const child = new StuckChild('removal');
    const started = performance.now();
    const result = await runOn(runtime, child);
    // well under the grace period the result waited for before (LIMITS.graceMs)
    expect(performance.now() - started).toBeLessThan(LIMITS.graceMs);
    expect(result.error?.kind).toBe('timeout');
    expect(child.discardDone).toBe(false);
    child.release();
    await runtime.dispose();
    expect(child.discardDone).toBe(true);
  });
});

// When a run's replacement spare starts, from the runtime's phase marks (real processes, spares on).
async function refillOrder(program: string): Promise<Map<RunPhase, number>> {
  const runtime = createRuntime({ spares: 1 });
  const marks = new Map<RunPhase, number>();
  const onMark = (message: unknown): void => {
    const mark = message as RunPhaseMark;
    if (!marks.has(mark.phase)) marks.set(mark.phase, mark.at);
  };
  try {
    const spec = () => runtime.resolve({ language: 'typescript', program });
    expect(await runtime.warm(spec())).toBe(true);
    diagnostics_channel.subscribe(RUN_PHASE_CHANNEL, onMark);
    const result = await runtime.run(spec());
    expect(result.error).toBeUndefined();
    await eventually('the replacement spare to be ready', () => marks.has('refill-ready'));
    return marks;
  } finally {
    diagnostics_channel.unsubscribe(RUN_PHASE_CHANNEL, onMark);
    await runtime.dispose();
  }
}

describe('the replacement spare', { timeout: 120_000 }, () => {
  test('starts after the result of a short run, so it does not compete with the program for the CPU', async () => {
    const marks = await refillOrder('return 1;');
    // the rule, not one timing of it: not before the result, unless the run had already run REFILL_AFTER_MS (a loaded
    // machine makes even `return 1` that long, issue 33); 1 ms for the timer's rounding
    const taken = marks.get('taken') ?? Infinity;
    const earliest = Math.min(marks.get('result') ?? Infinity, taken + REFILL_AFTER_MS) - 1;
    expect(marks.get('refill-started'), [...marks.entries()].join(', ')).toBeGreaterThanOrEqual(earliest);
  });

  test('starts while a longer run still runs, so the next run finds it ready', async () => {
    const marks = await refillOrder('await new Promise((r) => setTimeout(r, 1500));\nreturn 1;');
    expect(marks.get('refill-started'), [...marks.keys()].join(', ')).toBeLessThan(marks.get('settled') ?? 0);
  });
});
