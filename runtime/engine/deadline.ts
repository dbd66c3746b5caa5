import type { CodeRunSpec } from '../api.js';
import { LIMITS } from '../contract/limits.js';
import type { RunState } from './run-state.js';

// The program's deadline runs from the moment the program is handed over, so a cold start and a spare give it the
// same budget on a loaded machine; a child that never becomes ready is bounded separately. Returns the disarm.
export function armDeadline(
  session: RunState,
  spec: CodeRunSpec,
  handedOver: Promise<boolean>,
  child: string,
): () => void {
  let deadline: NodeJS.Timeout | undefined;
  const startup = setTimeout(
    () => session.fail({ kind: 'worker-exit', message: `${child} did not become ready within ${LIMITS.startupMs} ms` }),
    LIMITS.startupMs,
  );
  void handedOver.then((sent) => {
    clearTimeout(startup);
    if (!sent || session.outcome !== undefined) return;
    deadline = setTimeout(
      () => session.fail({ kind: 'timeout', message: `execution deadline reached (${spec.timeoutMs}ms)` }),
      spec.timeoutMs,
    );
  });
  return () => {
    clearTimeout(startup);
    clearTimeout(deadline);
  };
}
