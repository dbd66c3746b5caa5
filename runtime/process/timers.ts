// Timers a caller awaits, in one place. They hold the process open: an awaited timer is on someone's way to a result,
// and Node ends a process with nothing referenced left in its loop, with exit code 0 and silently, in the middle of
// that way (seen under load: `ptc` printed nothing and exited 0 while a cgroup's removal waited out a retry on an
// unref'd timer). A bound that loses its race is cleared at once, so it keeps nothing open after.
import { setTimeout as sleep } from 'node:timers/promises';

// Waits `ms`.
export function delay(ms: number): Promise<void> {
  return sleep(ms);
}

// What `promise` gives if it settles within `ms`, else `fallback`; a rejection within `ms` rejects.
export async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  const timer = new AbortController();
  try {
    // the losing timer's AbortError is handled by the race itself
    return await Promise.race([promise, sleep(ms, fallback, { signal: timer.signal })]);
  } finally {
    timer.abort();
  }
}

// Whether `promise` settles (either way) within `ms`.
export function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return within(
    promise.then(
      () => true,
      () => true,
    ),
    ms,
    false,
  );
}
