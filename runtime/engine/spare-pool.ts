// Pre-started, never-used child processes, generic over language. A backend describes a run's process by a
// `SpareKey` (language + every launch setting a program could observe). Per run it calls `take(key)` — a spare
// launched with exactly that key, or undefined: start cold — and then `refill(key, start)` so the next run finds one.
// `warm(key, start)` pre-starts ahead of a first run. A spare serves one run, ever.
//
// Policy (also stated at RuntimeOptions.spares in runtime/api.ts):
// - `size` spares per language are kept for the most recent key of that language; a run with another key
//   starts cold and retires the old key's spares (a settings change makes them useless).
// - the first run of a key is cold and primes the pool; the backend calls `refill` once a run has its result, or
//   once it has run for a moment (engine/fresh-child.ts): a spare starting beside a short program slows it down, one
//   started only after the teardown left the next run waiting for it.
// - a spare that fails to start is not retried until the next run asks for its key (no restart loop).
// - `dispose` kills every idle or starting spare and waits until they are gone.

import type { Spare } from '../process/spare.js';

export interface SpareKey {
  language: string;
  // every launch setting that a program could observe (interpreter, memory, sandbox plan, cwd…), serialised
  config: string;
}

export interface SparePoolStats {
  idle: number;
  starting: number;
  taken: number;
  cold: number;
}

interface Slot<S extends Spare> {
  spare: S;
  readyNow: boolean;
}

export class SparePool<S extends Spare> {
  readonly #size: number;
  // language -> config currently kept warm
  readonly #configs = new Map<string, string>();
  // language -> spares launched for #configs.get(language), oldest first
  readonly #slots = new Map<string, Slot<S>[]>();
  readonly #discarding = new Set<Promise<void>>();
  #disposed = false;
  #taken = 0;
  #cold = 0;

  constructor(size: number) {
    if (!Number.isSafeInteger(size) || size < 0)
      throw new TypeError(`spares: expected an integer ≥ 0, got ${String(size)}`);
    this.#size = size;
  }

  get size(): number {
    return this.#size;
  }

  // Hands over a never-used spare launched with `key`, or undefined when the run must start cold.
  // A spare still starting is awaited: it is further along than a cold start would be. Starts nothing itself.
  // An abort while waiting returns undefined at once and leaves the spare in the pool for the next run.
  async take(key: SpareKey, signal?: AbortSignal): Promise<S | undefined> {
    if (this.#size === 0 || this.#disposed) return undefined;
    this.#retireOtherConfigs(key);
    const slots = this.#slots.get(key.language) ?? [];
    // only spares that existed when the run asked: a replacement started below is no better than a cold start
    const candidates = slots.length;
    let found: S | undefined;
    for (let i = 0; i < candidates && found === undefined; i++) {
      const slot = slots.shift();
      if (slot === undefined) break;
      const ok = slot.readyNow || (await untilAborted(slot.spare.ready, signal));
      if (ok === 'aborted') {
        if (this.#disposed || this.#slots.get(key.language) !== slots) this.#discard(slot.spare);
        else slots.unshift(slot);
        return undefined;
      }
      if (ok && slot.spare.alive() && !this.#disposed) found = slot.spare;
      else this.#discard(slot.spare);
    }
    if (found === undefined) {
      this.#cold++;
      return undefined;
    }
    this.#taken++;
    return found;
  }

  // Tops `key` up to `size` spares, on the next turn of the event loop; call it for each run of `key` (whether it took
  // a spare or started cold). A no-op when `key` is no longer the language's current config.
  refill(key: SpareKey, start: () => S): void {
    if (this.#size === 0 || this.#disposed) return;
    setImmediate(() => {
      if (this.#configs.get(key.language) === key.config) this.#fill(key, start);
    });
  }

  // Starts spares for `key` (if none) and resolves once one is ready, or false if none could start.
  async warm(key: SpareKey, start: () => S): Promise<boolean> {
    if (this.#size === 0 || this.#disposed) return false;
    this.#retireOtherConfigs(key);
    this.#fill(key, start);
    const slots = this.#slots.get(key.language) ?? [];
    const results = await Promise.all(slots.map((s) => s.spare.ready));
    return results.some(Boolean) && !this.#disposed;
  }

  stats(): SparePoolStats {
    let idle = 0;
    let starting = 0;
    for (const slots of this.#slots.values()) {
      for (const slot of slots) {
        if (slot.readyNow) idle++;
        else starting++;
      }
    }
    return { idle, starting, taken: this.#taken, cold: this.#cold };
  }

  // Kills every spare, idle or starting, and waits until each is gone; later takes start cold.
  async dispose(): Promise<void> {
    this.#disposed = true;
    for (const slots of this.#slots.values()) for (const slot of slots) this.#discard(slot.spare);
    this.#slots.clear();
    this.#configs.clear();
    while (this.#discarding.size > 0) await Promise.allSettled([...this.#discarding]);
  }

  #retireOtherConfigs(key: SpareKey): void {
    const current = this.#configs.get(key.language);
    if (current === key.config) return;
    for (const slot of this.#slots.get(key.language) ?? []) this.#discard(slot.spare);
    this.#slots.set(key.language, []);
    this.#configs.set(key.language, key.config);
  }

  // Tops the language's slots up to `size` spares of `key`.
  #fill(key: SpareKey, start: () => S): void {
    const slots = this.#slots.get(key.language) ?? [];
    this.#slots.set(key.language, slots);
    while (!this.#disposed && slots.length < this.#size) {
      let spare: S;
      try {
        spare = start();
      } catch {
        // launching failed outright (e.g. temp dir unavailable): the run asking for it starts cold
        return;
      }
      const slot: Slot<S> = { spare, readyNow: false };
      slots.push(slot);
      void spare.ready.then((ok) => {
        if (ok && slots.includes(slot) && this.#slots.get(key.language) === slots) {
          slot.readyNow = true;
          return;
        }
        // failed while starting: drop it; no restart until a run asks again
        const index = slots.indexOf(slot);
        if (index >= 0) slots.splice(index, 1);
        if (!ok) this.#discard(spare);
      });
    }
  }

  #discard(spare: S): void {
    const done = spare.discard().catch(() => undefined);
    this.#discarding.add(done);
    void done.then(() => this.#discarding.delete(done));
  }
}

function untilAborted(ready: Promise<boolean>, signal: AbortSignal | undefined): Promise<boolean | 'aborted'> {
  if (signal === undefined) return ready;
  if (signal.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const onAbort = (): void => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
    void ready.then((ok) => {
      signal.removeEventListener('abort', onAbort);
      resolve(ok);
    });
  });
}
