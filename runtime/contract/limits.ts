// Defaults and caps (reference §3.2, Node process backend); resolve() applies them.
export const LIMITS = {
  timeoutMs: { default: 120_000, max: 600_000 },
  maxOutputBytes: { default: 64 * 1024 * 1024, min: 4, max: 1024 * 1024 * 1024 },
  memoryMb: { default: 512, min: 16, max: 16_384 },
  // the sandbox's tmpfs: the program's temp dir and working directory (in memory, gone with the run)
  tmpMb: { default: 256, min: 1, max: 16_384 },
  maxPendingCalls: { default: 128, min: 1, max: 65_536 },
  // binding calls per run: no cap unless asked for, except with live handlers (a loop would hammer a real API until
  // someone pressed Stop; the session applies `live`)
  maxCalls: { min: 1, max: 1_000_000_000, live: 1_000 },
  // per control frame; the child never needs more than the output cap plus envelope
  maxFrameBytes: 128 * 1024 * 1024,
  graceMs: 3_000,
  // a child (or a bindings host) that has not said ready by then is broken, not slow; the program's own deadline starts
  // after it. Two test suites at once on two cores took a wasm engine's child past 30 s to load
  startupMs: 60_000,
} as const;

// setTimeout clamps larger delays to 1 ms.
export const MAX_TIMER_MS = 2_147_483_647;
