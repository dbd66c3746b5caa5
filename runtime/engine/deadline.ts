import type { CodeRunSpec } from '../api.js';
import { LIMITS } from '../contract/limits.js';
import type { RunState } from './run-state.js';

// The program's deadline runs from the moment the program is handed over, so a cold start and a spare give it the
// same budget on a loaded machine; a child that never becomes ready is bounded separately. While a call waits for a
// person's decision the deadline stands still (RunState.pauseDeadline). Returns the disarm.
export function armDeadline(
  session: RunState,
  spec: CodeRunSpec,
  handedOver: Promise<boolean>,
  child: string,
): () => void {
  let deadline: NodeJS.Timeout | undefined;
  let remaining = spec.timeoutMs;
  let armedAt: number | undefined;
  let paused = false;
  let handed = false;
  const arm = (): void => {
    armedAt = performance.now();
    deadline = setTimeout(
      () => session.fail({ kind: 'timeout', message: `execution deadline reached (${spec.timeoutMs}ms)` }),
      Math.max(0, remaining),
    );
  };
  const startup = setTimeout(
    () => session.fail({ kind: 'worker-exit', message: `${child} did not become ready within ${LIMITS.startupMs} ms` }),
    LIMITS.startupMs,
  );
  session.deadline = {
    pause: () => {
      if (paused) return;
      paused = true;
      if (armedAt === undefined) return;
      clearTimeout(deadline);
      remaining -= performance.now() - armedAt;
      armedAt = undefined;
    },
    resume: () => {
      if (!paused) return;
      paused = false;
      if (handed && session.outcome === undefined) arm();
    },
  };
  void handedOver.then((sent) => {
    clearTimeout(startup);
    if (!sent || session.outcome !== undefined) return;
    handed = true;
    if (!paused) arm();
  });
  return () => {
    clearTimeout(startup);
    clearTimeout(deadline);
    session.deadline = undefined;
  };
}
