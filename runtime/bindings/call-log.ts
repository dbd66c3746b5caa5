import {
  KEPT_CALLS,
  LAST_CALLS,
  type BindingCallCount,
  type CallRecord,
  type CallSummary,
} from '../protocol/run-result.js';

// The run's call records with bounded memory: the first KEPT_CALLS in full, then a ring of the last LAST_CALLS, and
// counts per binding for every call; a record outside both lives only while its handler runs.
export class CallLog {
  readonly kept: CallRecord[] = [];
  readonly #last: CallRecord[] = [];
  #lastStart = 0;
  #total = 0;
  // per global, per name; `order` keeps them in order of first call
  readonly #counts = new Map<string, Map<string, BindingCallCount>>();
  readonly #order: BindingCallCount[] = [];

  // A call was issued (its record is then updated in place until it finishes).
  add(record: CallRecord): void {
    this.#total++;
    this.#countFor(record).calls++;
    if (this.kept.length < KEPT_CALLS) this.kept.push(record);
    else if (this.#last.length < LAST_CALLS) this.#last.push(record);
    else {
      this.#last[this.#lastStart] = record;
      this.#lastStart = (this.#lastStart + 1) % LAST_CALLS;
    }
  }

  // A call's outcome is final (ok, or failed with its message).
  finished(record: CallRecord): void {
    const count = this.#countFor(record);
    if (record.ok) count.ok++;
    else if (record.message !== undefined) count.failed++;
  }

  get total(): number {
    return this.#total;
  }

  // What the result says about calls beyond `kept`; undefined when every call is kept.
  summary(): CallSummary | undefined {
    if (this.#total <= KEPT_CALLS) return undefined;
    const last = [...this.#last.slice(this.#lastStart), ...this.#last.slice(0, this.#lastStart)];
    return {
      total: this.#total,
      omitted: this.#total - this.kept.length - last.length,
      byBinding: this.#order.map((c) => ({ ...c })),
      last,
    };
  }

  #countFor(record: CallRecord): BindingCallCount {
    let names = this.#counts.get(record.global);
    if (names === undefined) this.#counts.set(record.global, (names = new Map()));
    let count = names.get(record.name);
    if (count === undefined) {
      count = { global: record.global, name: record.name, calls: 0, ok: 0, failed: 0 };
      names.set(record.name, count);
      this.#order.push(count);
    }
    return count;
  }
}
