import type { CallEvent } from '../../runtime/index.js';
import type { Translate } from '../l10n.js';

// What a running cell's binding calls look like right now (the cell status bar shows it).
export interface CallProgressSnapshot {
  calls: number;
  failed: number;
  inFlight: number;
  // `tools.search` of the most recent call started or finished
  last: string | undefined;
}

export interface CallProgressOptions {
  // told at most every `intervalMs` while calls happen, and once more with the final counts on stop()
  onChange: (snapshot: CallProgressSnapshot) => void;
  intervalMs?: number;
}

// Counts a run's binding calls as they start and settle; updates are throttled so 10⁵ calls a second cost a few
// status bar refreshes, not one each.
export class CallProgress {
  readonly #options: Required<CallProgressOptions>;
  #started = 0;
  #settled = 0;
  #failed = 0;
  #last: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  constructor(options: CallProgressOptions) {
    this.#options = { intervalMs: 400, ...options };
  }

  started(call: { global: string; name: string }): void {
    this.#started++;
    this.#last = `${call.global}.${call.name}`;
    this.#schedule();
  }

  settled(event: CallEvent): void {
    this.#settled++;
    // a run served in-process reports no start: count the call when it settles
    if (this.#settled > this.#started) this.#started = this.#settled;
    if (!event.ok) this.#failed++;
    this.#last = `${event.global}.${event.name}`;
    this.#schedule();
  }

  snapshot(): CallProgressSnapshot {
    return {
      calls: this.#started,
      failed: this.#failed,
      inFlight: Math.max(0, this.#started - this.#settled),
      last: this.#last,
    };
  }

  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stopped = true;
  }

  #schedule(): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#stopped) this.#options.onChange(this.snapshot());
    }, this.#options.intervalMs);
  }
}

// "1 234 calls · 3 in flight · last tools.search" (the numbers as plain text, for a status bar item)
export function describeProgress(snapshot: CallProgressSnapshot, t: Translate): string {
  const parts = [snapshot.calls === 1 ? t('1 call') : t('{0} calls', snapshot.calls)];
  if (snapshot.failed > 0) parts.push(t('{0} failed', snapshot.failed));
  if (snapshot.inFlight > 0) parts.push(t('{0} in flight', snapshot.inFlight));
  if (snapshot.last !== undefined) parts.push(t('last {0}', snapshot.last));
  return parts.join(' · ');
}
