import { setMaxListeners } from 'node:events';
import type { BindingNamespace, CallContext } from '../api.js';
import { snapshotLossless } from '../json/lossless.js';
import { capText } from '../output/diagnostic.js';
import type { CallDecision } from '../protocol/call-pause.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { CallReply, FailureDetails } from '../protocol/program-wire.js';
import type { CallRecord } from '../protocol/run-result.js';
import { KEPT_PROGRESS } from '../protocol/run-result.js';
import { keptDetails } from './call-failure.js';
import { CallLog } from './call-log.js';

// not ok ends the run: a protocol violation, or the run's call budget spent (`call-limit`)
export type DispatchVerdict = { ok: true } | { ok: false; message: string; kind?: 'call-limit' };

export interface DispatcherOptions {
  namespaces: readonly BindingNamespace[];
  maxPendingCalls: number;
  // calls the run may make in all (undefined: no cap)
  maxCalls?: number | undefined;
  startedAt: number;
  // ids must be exactly the next integer from `firstId`: a gap or repeat is forged traffic
  firstId: number;
  // 'increasing': gaps allowed (a bindings host served the ids in between), repeats and going back are not
  sequence?: 'exact' | 'increasing';
  // the call's record comes along (its duration and marks are final): the call log keeps only some records
  sendReply(id: number, reply: CallReply, record: CallRecord): void;
  // offered to the layer serving each call (CallContext.interruptible): how a bindings host interrupts its calls
  interruptible?: (call: CallRecord, stop: (reason: Error) => void) => () => void;
  // a call to hold before its handler runs (a breakpoint, an approval, a fork's prefix): how it goes on, decided
  // elsewhere; undefined lets it through at once
  gate?: (call: CallRecord) => Promise<CallDecision> | undefined;
}

const own = (obj: object, key: string): boolean => Object.prototype.hasOwnProperty.call(obj, key);

// Runs host handlers for the child's call frames; handlers are user code, so every outcome is caught.
export class CallDispatcher {
  // bounded: the first calls in full, the last few, counts for the rest
  readonly log = new CallLog();
  #expected: number;
  #inFlight = 0;
  #settled = false;
  readonly #abort = new AbortController();
  readonly #byGlobal = new Map<string, BindingNamespace>();
  #idle: (() => void) | undefined;

  constructor(private readonly options: DispatcherOptions) {
    this.#expected = options.firstId;
    // every in-flight handler listens on the run's signal: up to maxPendingCalls listeners is by design, not a leak
    setMaxListeners(0, this.#abort.signal);
    for (const ns of options.namespaces) this.#byGlobal.set(ns.global, ns);
  }

  // the calls kept one by one
  get calls(): CallRecord[] {
    return this.log.kept;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  // calls the run may still make (Infinity without a budget): a host reports only these as started
  get callsLeft(): number {
    const max = this.options.maxCalls;
    return max === undefined ? Infinity : Math.max(0, max - this.log.total);
  }

  // Validates and starts one call; a verdict of not ok is a protocol violation that ends the run.
  dispatch(id: number, global: string, name: string, args: JsonValue): DispatchVerdict {
    if (this.#settled) return { ok: true };
    const inSequence = this.options.sequence === 'increasing' ? id >= this.#expected : id === this.#expected;
    if (!inSequence) return { ok: false, message: `call id ${id} out of sequence (expected ${this.#expected})` };
    const ns = this.#byGlobal.get(global);
    if (ns === undefined || !own(ns.functions, name)) {
      // both names come from the child: quoted in part only
      return {
        ok: false,
        message: `program requested an undeclared binding ${JSON.stringify(capText(`${capText(global)}.${capText(name)}`))}`,
      };
    }
    const maxCalls = this.options.maxCalls;
    if (maxCalls !== undefined && this.log.total >= maxCalls)
      return { ok: false, kind: 'call-limit', message: callLimitMessage(maxCalls) };
    if (this.#inFlight >= this.options.maxPendingCalls) {
      return { ok: false, message: `more than ${this.options.maxPendingCalls} binding calls in flight` };
    }
    this.#expected = id + 1;
    this.#inFlight++;
    const record: CallRecord = {
      id,
      global,
      name,
      args,
      ok: false,
      startedAtMs: performance.now() - this.options.startedAt,
      durationMs: 0,
    };
    this.log.add(record);
    const fn = ns.functions[name] as BindingNamespace['functions'][string];
    const held = this.options.gate?.(record);
    if (held === undefined) this.#invoke(record, fn, args);
    else
      held.then(
        (decision) => this.#decided(record, fn, decision),
        (thrown: unknown) => this.#finish(record, performance.now(), { ok: false, thrown }),
      );
    return { ok: true };
  }

  // A held call goes on as decided: its handler runs (with edited arguments), or the decision is its answer.
  #decided(record: CallRecord, fn: BindingNamespace['functions'][string], decision: CallDecision): void {
    if (this.#settled) return this.#finish(record, performance.now(), { ok: false, thrown: new Error('run settled') });
    if (decision.kind === 'continue') return this.#invoke(record, fn, decision.args ?? record.args);
    const outcome =
      decision.kind === 'answer'
        ? { ok: true as const, value: decision.value }
        : { ok: false as const, thrown: new Error(decision.message) };
    this.#finish(record, performance.now(), outcome);
  }

  #invoke(record: CallRecord, fn: BindingNamespace['functions'][string], args: JsonValue): void {
    const { id, global, name } = record;
    const context: CallContext = {
      id,
      global,
      name,
      signal: this.#abort.signal,
      annotate: (note) => {
        if (note.replayed !== undefined) record.replayed = note.replayed;
        if (note.schemaViolation !== undefined) record.schemaViolation = note.schemaViolation;
        if (note.progress !== undefined) addProgress(record, note.progress, performance.now() - this.options.startedAt);
      },
    };
    const interruptible = this.options.interruptible;
    if (interruptible !== undefined) context.interruptible = (stop) => interruptible(record, stop);
    const began = performance.now();
    let promise: Promise<unknown>;
    try {
      promise = Promise.resolve(fn(args, context));
    } catch (thrown) {
      promise = Promise.reject(thrown);
    }
    promise.then(
      (value) => this.#finish(record, began, { ok: true, value }),
      (thrown: unknown) => this.#finish(record, began, { ok: false, thrown }),
    );
  }

  #finish(
    record: CallRecord,
    began: number,
    outcome: { ok: true; value: unknown } | { ok: false; thrown: unknown },
  ): void {
    this.#inFlight--;
    record.durationMs = performance.now() - began;
    if (!this.#settled) {
      if (outcome.ok) {
        // one read of the handler's value: the record holds what was sent, even if a getter would answer otherwise now
        const snapshot = snapshotLossless(outcome.value);
        if (snapshot.ok) {
          record.ok = true;
          record.value = snapshot.value;
          this.options.sendReply(record.id, { ok: true, valueText: snapshot.text }, record);
        } else {
          record.message = `binding resolution must be lossless JSON: ${snapshot.reason}`;
          this.options.sendReply(record.id, { ok: false, message: record.message }, record);
        }
      } else {
        record.message = renderThrown(outcome.thrown);
        const details = recordDetails(record, outcome.thrown);
        this.options.sendReply(
          record.id,
          details === undefined
            ? { ok: false, message: record.message }
            : { ok: false, message: record.message, details },
          record,
        );
      }
    } else if (!outcome.ok) {
      record.message = renderThrown(outcome.thrown);
      recordDetails(record, outcome.thrown);
    }
    this.log.finished(record);
    if (this.#inFlight === 0) this.#idle?.();
  }

  // Stops answering; in-flight handlers see their signal abort and their late answers are dropped.
  settle(): void {
    this.#settled = true;
    this.#abort.abort(new Error('run settled'));
  }

  // Waits (bounded) for handlers still running, so call records get their durations.
  async drain(timeoutMs: number): Promise<void> {
    if (this.#inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

// The `call-limit` failure's message; it names the budget, so a person knows which number to raise.
export function callLimitMessage(maxCalls: number): string {
  return `the program made more than ${maxCalls} binding call${maxCalls === 1 ? '' : 's'} (maxCalls ${maxCalls}); the run was stopped before call ${maxCalls + 1}`;
}

// A handler's failure as the program will see it: Error.message, else String(thrown), never a throw.
export function renderThrown(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return String(thrown.message);
    if (typeof thrown === 'string') return thrown;
    return String(thrown);
  } catch {
    return 'binding failed with an unrenderable value';
  }
}

// Marks the record with a failure's details (lossless JSON only: they travel to the program as they are).
function recordDetails(record: CallRecord, thrown: unknown): FailureDetails | undefined {
  const details = keptDetails(thrown);
  if (details?.code !== undefined) record.errorCode = details.code;
  if (details?.data !== undefined) record.errorData = details.data;
  return details;
}

const MAX_PROGRESS_MESSAGE = 1_000;

// Keeps a call's last KEPT_PROGRESS reports and counts them all; the numbers and text come from a server: checked.
function addProgress(
  record: CallRecord,
  note: { progress: unknown; total?: unknown; message?: unknown },
  atMs: number,
): void {
  if (typeof note.progress !== 'number' || !Number.isFinite(note.progress)) return;
  const mark: NonNullable<CallRecord['progress']>[number] = {
    atMs: Math.max(0, Math.round(atMs * 1000) / 1000),
    progress: note.progress,
  };
  if (typeof note.total === 'number' && Number.isFinite(note.total)) mark.total = note.total;
  if (typeof note.message === 'string') mark.message = capText(note.message, MAX_PROGRESS_MESSAGE);
  const marks = (record.progress ??= []);
  marks.push(mark);
  if (marks.length > KEPT_PROGRESS) marks.shift();
  record.progressCount = (record.progressCount ?? 0) + 1;
}
