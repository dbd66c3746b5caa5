import type { JsonValue } from '../protocol/json-value.js';
import type { CallRecord } from '../protocol/run-result.js';
import { replyText } from '../protocol/program-wire.js';
import type { HostedRunLink, HostedRunOptions } from '../protocol/hosted-bindings.js';
import type { CallEvent, CallStartListener } from '../bindings/observe.js';
import { CLOSE_WAIT_MS } from './limits.js';
import { settlesWithin } from '../process/timers.js';
import type { FinishedCall, StartedCall } from '../protocol/binding-call.js';
import type { FlightEntry } from './host-process.js';
import type { CallDecision, PauseReason } from '../protocol/call-pause.js';

export interface HostedRunDeps {
  run: number;
  options: HostedRunOptions;
  closeRun(run: number): void;
  // whether the host is answering now, and what it recorded but did not report yet
  responsive(): boolean;
  readFlight(): FlightEntry[];
  // tells the host how a held call goes on
  decide(run: number, id: number, decision: CallDecision): void;
  onCall?: (event: CallEvent) => void;
  onCallStart?: CallStartListener;
  // told whenever the number of calls in flight changes
  onActivity(): void;
}

function argsChars(args: JsonValue): number {
  try {
    return JSON.stringify(args).length;
  } catch {
    return -1;
  }
}

// The runtime's side of one run served by a bindings host: the calls the host reports become the run's call
// records; if the host goes away, the calls it left unanswered fail with a message naming what happened.
export class HostedRun implements HostedRunLink {
  readonly run: number;
  readonly #deps: HostedRunDeps;
  // records of the calls still running (the run's call log keeps what it keeps of every call)
  readonly #inFlight = new Map<number, CallRecord>();
  // the highest id recorded: a report repeating an earlier call (the flight record after a report) is dropped
  #lastId = 0;
  #lost: string | undefined;
  #closing: Promise<void> | undefined;
  #closedResolve: () => void = () => undefined;
  readonly #closed = new Promise<void>((resolve) => (this.#closedResolve = resolve));

  constructor(deps: HostedRunDeps) {
    this.run = deps.run;
    this.#deps = deps;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  // Why the host cannot serve this run any more, once it cannot.
  get lost(): string | undefined {
    return this.#lost;
  }

  started(calls: readonly StartedCall[]): void {
    for (const call of calls) {
      if (call.id <= this.#lastId || this.#lost !== undefined) continue;
      this.#lastId = call.id;
      const record: CallRecord = {
        id: call.id,
        global: call.global,
        name: call.name,
        args: (call.args ?? null) as JsonValue,
        ok: false,
        startedAtMs: Math.max(0, call.startedAtMs),
        durationMs: 0,
      };
      this.#deps.options.log.add(record);
      this.#inFlight.set(call.id, record);
      this.#deps.options.onHostCall?.(call.id);
      try {
        this.#deps.onCallStart?.({ global: call.global, name: call.name });
      } catch {
        // an observer never changes the run
      }
    }
    this.#deps.onActivity();
  }

  finished(calls: readonly FinishedCall[]): void {
    for (const call of calls) {
      const record = this.#inFlight.get(call.id);
      if (record === undefined) continue;
      this.#inFlight.delete(call.id);
      record.durationMs = call.durationMs;
      if (call.ok) {
        record.ok = true;
        record.value = (call.value ?? null) as JsonValue;
      } else record.message = call.message ?? 'binding failed';
      if (call.schemaViolation !== undefined) record.schemaViolation = call.schemaViolation;
      if (call.errorCode !== undefined) record.errorCode = call.errorCode;
      if (call.errorData !== undefined) record.errorData = call.errorData as JsonValue;
      if (call.progress !== undefined) record.progress = call.progress.map((mark) => ({ ...mark }));
      if (call.progressCount !== undefined) record.progressCount = call.progressCount;
      this.#deps.options.log.finished(record);
      this.#report(record);
    }
    this.#deps.onActivity();
  }

  // The host holds call `id` for a decision: asked of the run, then sent back (nothing is sent once the host is gone).
  paused(id: number, reason: PauseReason): void {
    const record = this.#inFlight.get(id);
    const decide = this.#deps.options.decide;
    const decision: Promise<CallDecision> =
      record === undefined || decide === undefined
        ? Promise.resolve({ kind: 'continue' })
        : decide(record, reason).catch((error: unknown) => ({ kind: 'throw', message: String(error) }));
    void decision.then((chosen) => {
      if (this.#lost === undefined) this.#deps.decide(this.run, id, chosen);
    });
  }

  knowsCall(id: number): boolean {
    if (id <= this.#lastId) return true;
    if (this.#lost !== undefined) return false;
    return this.#deps.readFlight().some((entry) => entry.run === this.run && entry.call.id === id);
  }

  protocol(message: string, kind: 'protocol' | 'call-limit' = 'protocol'): void {
    this.#deps.options.fail({ kind, message });
  }

  // The host reported its last answers for this run.
  closedByHost(): void {
    this.#closedResolve();
  }

  // The host is gone (`what`: "exited with code 7", "stopped responding"…): each call it was running fails naming
  // itself, and the child fails whatever else it waits for and sends later calls where the runtime answers them.
  lose(what: string): void {
    if (this.#lost !== undefined) return;
    const generic = `bindings host ${what}`;
    this.#lost = generic;
    // after the run settled nobody waits for these answers: its unanswered calls stay unanswered
    if (this.#closing === undefined) {
      const { sendToChild, startedAt } = this.#deps.options;
      for (const [id, record] of this.#inFlight) {
        record.message = `bindings host ${what} while ${record.global}.${record.name} was running`;
        record.durationMs = Math.max(0, performance.now() - startedAt - record.startedAtMs);
        sendToChild(replyText(id, { ok: false, message: record.message }));
        this.#deps.options.log.finished(record);
        this.#report(record);
      }
      sendToChild(JSON.stringify({ type: 'bindings-lost', message: generic }));
    }
    this.#inFlight.clear();
    this.#closedResolve();
    this.#deps.onActivity();
    this.#deps.options.onLost?.();
  }

  // The run settled: the host aborts its handlers; the result waits (bounded) for the answers it already gave.
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#lost === undefined) {
        this.#deps.closeRun(this.run);
        // a host stuck in a handler will not answer: its record names the calls it took
        let closed = false;
        if (this.#deps.responsive()) closed = await settlesWithin(this.#closed, CLOSE_WAIT_MS);
        if (!closed)
          this.started(
            this.#deps
              .readFlight()
              .filter((entry) => entry.run === this.run)
              .map((entry) => entry.call),
          );
      }
      // calls still running when the run settled stay unanswered (a recording marks them pending)
      this.#inFlight.clear();
      this.#deps.onActivity();
    })();
    return this.#closing;
  }

  #report(record: CallRecord): void {
    const listener = this.#deps.onCall;
    if (listener === undefined) return;
    try {
      listener({
        global: record.global,
        name: record.name,
        ok: record.ok,
        durationMs: record.durationMs,
        argsChars: argsChars(record.args),
        ...(record.message === undefined ? {} : { message: record.message }),
      });
    } catch {
      // a failing listener must never change the run
    }
  }
}
