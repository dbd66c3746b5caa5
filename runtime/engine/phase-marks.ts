import diagnostics_channel from 'node:diagnostics_channel';

// When each phase of a run was reached (performance.now()), for whoever subscribes: the bench's phase rows
// (bench/lib/phases.mjs) read them, so a latency miss has an address. Nothing is built or kept while nobody listens.
export const RUN_PHASE_CHANNEL = 'ptc-playground:run-phase';

// In the order a spare-ready run reaches them: the request is checked (temp dir, sandbox plan), the TypeScript is
// stripped, a child is taken (or started cold), the program is handed over, the outcome settles, the child is gone
// (kill, pipes closed), the result is returned; after it, the child's teardown ends (private dir and cgroup removed)
// and the replacement spare started by this run becomes ready.
export type RunPhase =
  | 'start'
  | 'environment-checked'
  | 'planned'
  | 'stripped'
  | 'taken'
  | 'handed-over'
  | 'settled'
  | 'exited'
  | 'result'
  | 'discarded'
  | 'refill-started'
  | 'refill-ready';

export interface RunPhaseMark {
  // the run's spec object: one identity per run, from the runtime's run() to its teardown
  run: object;
  language: string;
  phase: RunPhase;
  at: number;
}

const channel = diagnostics_channel.channel(RUN_PHASE_CHANNEL);

// `at` for a phase whose time was taken earlier (the hand-over, the settlement).
export function markPhase(run: { language: string }, phase: RunPhase, at?: number): void {
  if (!channel.hasSubscribers) return;
  const mark: RunPhaseMark = { run, language: run.language, phase, at: at ?? performance.now() };
  channel.publish(mark);
}
