// Waiting for an effect that lands after the call that caused it returned: a process reaped, a file removed, a spare
// refilled, a descriptor closed, a log line passed on. One polling loop for every suite, always with a deadline, so a
// test neither asserts such an effect at once (flaky on a loaded machine) nor sleeps a fixed time hoping it happened.

const INTERVAL_MS = 50;
// generous: on two cores shared by two suites at once a reap or a spare's start-up takes seconds, not milliseconds
export const DEFAULT_WAIT_MS = 30_000;

export interface WaitOptions {
  timeoutMs?: number;
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Probes until `done` holds or the deadline passes; returns the last value seen either way.
async function poll<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && performance.now() < deadline) {
    await delay(INTERVAL_MS);
    value = await probe();
  }
  return value;
}

// Resolves with the first value of `probe` other than undefined or false; rejects naming `what` after the deadline.
export async function eventually<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: WaitOptions = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  const value = await poll(probe, (v) => v !== undefined && v !== false, timeoutMs);
  if (value === undefined || value === false)
    throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
  return value;
}

// Probes a list until it is empty or the deadline passes, and returns what is left, so the caller's assertion
// (`expect(await settleTo(...), what).toEqual([])`) or report names each survivor.
export function settleTo<T>(probe: () => T[], timeoutMs = DEFAULT_WAIT_MS): Promise<T[]> {
  return poll(probe, (v) => v.length === 0, timeoutMs);
}
