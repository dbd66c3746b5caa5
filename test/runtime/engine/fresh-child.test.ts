import { describe, expect, test } from 'vitest';
import { pendingTeardowns, runOnFreshChild } from '../../../runtime/engine/fresh-child.js';
import type { Spare } from '../../../runtime/process/spare.js';
import { createRuntime } from '../../../runtime/index.js';

// The run sequence on its own, with a scripted child whose teardown the test controls (a child slow to die: a loaded
// machine, pipes held open); real processes are covered by every backend test.
class StuckChild implements Spare {
  readonly pid = undefined;
  readonly ready = Promise.resolve(true);
  discardStarted = false;
  discardDone = false;
  #release: () => void = () => undefined;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));

  alive(): boolean {
    return !this.discardDone;
  }

  async discard(): Promise<void> {
    this.discardStarted = true;
    await this.#released;
    this.discardDone = true;
  }

  release(): void {
    this.#release();
  }
}

describe('runOnFreshChild', () => {
  test('the result does not wait for a teardown that outlasts the grace period; dispose waits for it', async () => {
    const runtime = createRuntime();
    const spec = runtime.resolve({ language: 'typescript', program: 'return 1' });
    const child = new StuckChild();
    const result = await runOnFreshChild({
      spec,
      report: {
        network: 'allowed',
        filesystem: 'allowed',
        childProcess: 'allowed',
        enforcement: 'none',
        mechanisms: [],
      },
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
});
