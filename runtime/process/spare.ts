// One pre-started process, as the spare pool (engine/spare-pool.ts) sees it. Implementations own its private
// resources (temp dir, pipes).
export interface Spare {
  readonly pid: number | undefined;
  // true once the process can take a program; false if it died or failed while starting
  readonly ready: Promise<boolean>;
  // still alive right now (a spare may die while idle: OOM killer, a stray signal)
  alive(): boolean;
  // kills the process tree and waits (bounded) until its pipes closed; idempotent, and discard()'s first step
  stop(): Promise<void>;
  // stops the process tree and removes its private resources; idempotent
  discard(): Promise<void>;
}
