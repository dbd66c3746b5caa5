// How `ptc` stops on a signal. The first SIGINT, SIGTERM or SIGHUP (a closed terminal) aborts the command's runs: their
// results are still printed and nothing is left behind (processes, private dirs). A second signal, or a stop that takes
// longer than STOP_GRACE_MS (stuck in I/O: a FIFO nobody reads), ends the process at once. Either way the exit code is
// 128 + the signal's number (130, 143, 129), as a shell reports a process the signal killed.
import type { CliIo } from './usage-error.js';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof EXIT_CODES;

// a graceful stop waits this long for runs to end and clean up before the process exits anyway
export const STOP_GRACE_MS = 10_000;

const controllers = new Set<AbortController>();
let received: StopSignal | undefined;
let installed = false;

// Installs the handlers once per process (main.ts).
export function installSignalHandlers(io: CliIo): void {
  if (installed) return;
  installed = true;
  for (const name of Object.keys(EXIT_CODES) as StopSignal[]) process.on(name, () => onSignal(name, io));
}

// Ends the process by the signal itself (the shell sees 128 + its number). Not process.exit(): that waits for the
// thread pool, and a thread blocked opening a FIFO nobody reads would keep the process alive forever.
function die(name: StopSignal): void {
  for (const other of Object.keys(EXIT_CODES) as StopSignal[]) process.removeAllListeners(other);
  process.kill(process.pid, name);
}

function onSignal(name: StopSignal, io: CliIo): void {
  if (received !== undefined) {
    io.stderr(`ptc: ${name} again: stopping now\n`);
    return die(name);
  }
  received = name;
  // nothing is running that could clean up after itself: there is nothing to wait for
  if (controllers.size === 0) return die(name);
  if (name === 'SIGINT' && process.stderr.isTTY) io.stderr('ptc: stopping… (Ctrl-C again to stop at once)\n');
  for (const controller of controllers) controller.abort(new Error(`interrupted by ${name}`));
  setTimeout(() => {
    io.stderr(`ptc: still stopping ${STOP_GRACE_MS / 1000} s after ${name}: stopping now\n`);
    die(name);
  }, STOP_GRACE_MS).unref();
}

// The exit code a received signal decides (130, 143, 129), or undefined when none came.
export function signalExitCode(): number | undefined {
  return received === undefined ? undefined : EXIT_CODES[received];
}

// An abort signal for a command's runs, aborted by the first stop signal (at once, if one already came).
export function interruptible(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (received !== undefined) controller.abort(new Error(`interrupted by ${received}`));
  controllers.add(controller);
  return { signal: controller.signal, dispose: () => controllers.delete(controller) };
}
