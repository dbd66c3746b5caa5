import { CallDispatcher } from '../../bindings/dispatcher.js';
import type { BindingsModule } from '../../bindings/module-format.js';
import { namespacesFor } from '../../bindings/module-loader.js';
import { decodeLossless, encodeChecked } from '../../json/lossless.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { CallRecord } from '../../protocol/run-result.js';
import { CallFrameSchema, replyText, type CallReply } from '../../protocol/program-wire.js';
import { callsReportText, finishedCallText, startedCallText } from '../../protocol/call-report-codec.js';
import { pauseReason, type CallDecision } from '../../protocol/call-pause.js';
import type { OpenRunFrame } from '../wire.js';
import type { CallGateSpec } from '../../protocol/call-pause.js';
import type { ChildConnection } from './child-connection.js';

// How often answers are reported to the runtime while a run is busy (each report is one write to it).
const REPORT_EVERY_MS = 50;

// Payloads in reports were checked lossless already (by the decoder, or by the dispatcher's reply): no second check.
const encodeKnown = (value: JsonValue): string => encodeChecked(value, 0);

export interface RunNotes {
  // writes one frame to the runtime at once (synchronously)
  write(text: string): void;
  // records started calls where the runtime finds them if this process dies or hangs before it reports them
  record(lines: string): void;
  // everything recorded so far has been reported
  reported(): void;
}

// Serves one run's binding calls straight from the program child's connection: the child's frames are hostile
// (checked exactly as the runtime checks its own channel), and every call and answer is reported to the runtime,
// in batches, off the round trip; closing the run reports what is left.
export class ServedRun {
  readonly #dispatcher: CallDispatcher;
  readonly #connection: ChildConnection;
  readonly #notes: RunNotes;
  readonly #run: number;
  // how to end each call still running (an interrupt), given the message's ending
  readonly #inFlight = new Map<number, (message: string) => void>();
  #started: string[] = [];
  #finished: string[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #closed = false;
  readonly #startedAt: number;
  // calls held for the runtime's decision (a breakpoint, an approval, a fork's prefix), by id
  readonly #held = new Map<number, (decision: CallDecision) => void>();
  // the last decision asked to break on the next call
  #stepping = false;
  // how long each decided call waited (told to a child that keeps its own deadline)
  readonly #waited = new Map<number, number>();
  readonly #codec: 'frames' | 'lines';

  constructor(options: {
    open: OpenRunFrame;
    module: BindingsModule;
    connection: ChildConnection;
    notes: RunNotes;
    warn: (message: string) => void;
  }) {
    const { open } = options;
    this.#run = open.run;
    this.#codec = open.codec;
    this.#notes = options.notes;
    this.#connection = options.connection;
    const namespaces = namespacesFor(options.module, open.mode, {
      seed: open.seed,
      onWarning: (message) => options.warn(message),
    });
    // the runtime's clock origin for this run, on this process's performance timeline
    const startedAt = open.startedAtEpochMs - performance.timeOrigin;
    this.#startedAt = startedAt;
    this.#dispatcher = new CallDispatcher({
      namespaces,
      maxPendingCalls: open.maxPendingCalls,
      maxCalls: open.maxCalls,
      startedAt,
      firstId: 1,
      sendReply: (id, reply, record) => this.#answer(id, reply, record),
      interruptible: (record, stop) => {
        const label = `${record.global}.${record.name}`;
        this.#inFlight.set(record.id, (message) => stop(new Error(`${label} ${message}`)));
        return () => this.#inFlight.delete(record.id);
      },
      ...(open.gate === undefined ? {} : { gate: (record) => this.#hold(record, open.gate as CallGateSpec) }),
    });
    options.connection.bind(open.codec, {
      onFrames: (texts) => this.#receive(texts),
      onProblem: (message) => this.#protocol(message),
      // the child ended (its run settled or it died): the runtime closes the run
      onClose: () => undefined,
    });
  }

  // Every call still running is answered with `message` now; its handler is told through its signal.
  interrupt(message: string): number {
    const running = [...this.#inFlight.values()];
    for (const stop of running) stop(message);
    return running.length;
  }

  // The runtime decided how a held call goes on (a decision for a call not held is stale: dropped).
  decide(id: number, decision: CallDecision): void {
    const resolve = this.#held.get(id);
    if (resolve === undefined) return;
    this.#held.delete(id);
    if (decision.step === true) this.#stepping = true;
    resolve(decision);
  }

  // Holds a call the gate stops: the runtime hears of it (after its start, reported first) and sends the decision.
  #hold(record: CallRecord, gate: CallGateSpec): Promise<CallDecision> | undefined {
    const reason = pauseReason(gate, record, this.#stepping);
    if (reason === undefined) return undefined;
    if (reason !== 'fork') this.#stepping = false;
    const heldAt = performance.now();
    const decided = new Promise<CallDecision>((resolve) =>
      this.#held.set(record.id, (decision) => {
        this.#waited.set(record.id, round(performance.now() - heldAt));
        resolve(decision);
      }),
    );
    this.flush();
    this.#notes.write(JSON.stringify({ type: 'paused', run: this.#run, id: record.id, reason }));
    return decided;
  }

  // The run settled: handlers still running see their signal abort; nothing more reaches the child.
  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    for (const resolve of this.#held.values()) resolve({ kind: 'throw', message: 'run settled' });
    this.#held.clear();
    this.#dispatcher.settle();
    this.#connection.close();
  }

  #receive(texts: string[]): void {
    if (this.#closed) return;
    let calls: { id: number; global: string; name: string; args: JsonValue }[] = [];
    for (const text of texts) {
      const decoded = decodeLossless(text);
      if (!decoded.ok) return this.#protocol(`bindings frame is not lossless JSON (${decoded.reason})`);
      const parsed = CallFrameSchema.safeParse(decoded.value);
      if (!parsed.success)
        return this.#protocol(`malformed bindings frame: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      const { id, global, name } = parsed.data;
      calls.push({ id, global, name, args: (parsed.data.args ?? null) as JsonValue });
    }
    // the first call past the run's budget is not reported as started: the dispatcher refuses it and the run ends
    const budget = this.#dispatcher.callsLeft;
    const refused = calls.length > budget ? calls[budget] : undefined;
    if (refused !== undefined) calls = calls.slice(0, budget);
    // recorded before any handler runs, reported lazily with the answers: the round trip wakes nobody else, and a
    // handler that hangs or kills the process is still named by the runtime (it reads the record)
    const at = round(performance.now() - this.#startedAt);
    let lines = '';
    for (const c of calls) {
      const note = startedCallText(c, at, encodeKnown);
      this.#started.push(note);
      lines += `{"run":${this.#run},"call":${note}}\n`;
    }
    this.#notes.record(lines);
    this.#flushTimer ??= setTimeout(() => this.flush(), REPORT_EVERY_MS);
    for (const call of refused === undefined ? calls : [...calls, refused]) {
      const verdict = this.#dispatcher.dispatch(call.id, call.global, call.name, call.args);
      if (!verdict.ok) return this.#protocol(verdict.message, verdict.kind);
    }
  }

  #answer(id: number, reply: CallReply, record: CallRecord): void {
    if (this.#closed) return;
    this.#finished.push(finishedCallText(id, reply, record, encodeKnown));
    const waited = this.#waited.get(id);
    if (waited !== undefined) this.#waited.delete(id);
    // the lines codec is Python's strict wire (no in-child deadline to move)
    this.#connection.send(replyText(id, reply, this.#codec === 'frames' ? waited : undefined));
    // answers are reported lazily, after the reply left: off the round trip. The run's close waits for them.
    this.#flushTimer ??= setTimeout(() => this.flush(), REPORT_EVERY_MS);
  }

  // Writes the pending reports to the runtime in one frame.
  flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#started.length === 0 && this.#finished.length === 0) return;
    const started = this.#started;
    this.#notes.write(callsReportText(this.#run, started, this.#finished));
    this.#started = [];
    this.#finished = [];
    if (started.length > 0) this.#notes.reported();
  }

  #protocol(message: string, kind?: 'call-limit'): void {
    if (this.#closed) return;
    this.#notes.write(
      JSON.stringify(
        kind === undefined
          ? { type: 'protocol', run: this.#run, message }
          : { type: 'protocol', run: this.#run, message, kind },
      ),
    );
    this.close();
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
