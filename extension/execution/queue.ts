// Runs jobs one at a time per key (one key per notebook), in submission order; a failed job never blocks the next.
export class KeyedSerialQueue<K> {
  readonly #states = new Map<K, { tail: Promise<void>; pending: number }>();
  readonly #onError: (error: unknown) => void;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  // Resolves when the job has run (never rejects; a thrown job goes to onError).
  run(key: K, job: () => Promise<void>): Promise<void> {
    let state = this.#states.get(key);
    if (state === undefined) {
      state = { tail: Promise.resolve(), pending: 0 };
      this.#states.set(key, state);
    }
    const own = state;
    own.pending++;
    const promise = own.tail
      .then(job)
      .catch((error: unknown) => this.#onError(error))
      .finally(() => {
        own.pending--;
        if (own.pending === 0 && this.#states.get(key) === own) this.#states.delete(key);
      });
    own.tail = promise;
    return promise;
  }

  // Jobs queued or running for a key.
  pending(key: K): number {
    return this.#states.get(key)?.pending ?? 0;
  }
}
