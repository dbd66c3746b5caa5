import { createRuntime, type RuntimeProvider } from '../index.js';
import { bindingsLog, type BindingsLog } from './bindings-log.js';
import { interruptible } from './signals.js';
import type { CliIo } from './usage-error.js';

export interface NotebookCommandRuns {
  // the notebooks' sessions: one runtime for every cell, the bindings' own output labelled on stderr
  session: { runtimeFor: RuntimeProvider; bindingsLog: BindingsLog['forModule'] };
  // aborted by SIGINT, SIGTERM or SIGHUP
  signal: AbortSignal;
  // stops listening for signals, ends the runtime, then says what the bindings' output cap left out
  dispose(): Promise<void>;
}

// What `ptc notebook` and `ptc test` run notebooks with, decided once: one runtime with `spares` processes kept ready,
// the bindings' output under the command's output cap (--max-output-bytes), and a stop on a signal.
export function notebookCommandRuns(
  io: CliIo,
  options: { spares: number; maxOutputBytes: number | undefined },
): NotebookCommandRuns {
  const runtime = createRuntime({ spares: options.spares });
  const logs = bindingsLog(io, { maxBytes: options.maxOutputBytes });
  const signals = interruptible();
  return {
    session: { runtimeFor: () => runtime, bindingsLog: logs.forModule },
    signal: signals.signal,
    dispose: async () => {
      signals.dispose();
      await runtime.dispose();
      logs.end();
    },
  };
}
