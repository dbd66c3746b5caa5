import type { CodeRunSpec } from '../api.js';
import { CallDispatcher, type DispatcherOptions } from '../bindings/dispatcher.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { RunFailure, RunResult, SandboxReport } from '../protocol/run-result.js';
import { jsonStringCost, maxLogEntries, OutputLedger, type LedgerEntry } from '../output/ledger.js';

export type Outcome =
  { kind: 'completed'; value?: JsonValue; valueBytes: number } | { kind: 'failed'; failure: RunFailure };

// Per-run host state shared by both backends: the byte ledger, binding calls, and the first settled outcome.
export class RunState {
  readonly ledger: OutputLedger;
  readonly startedAt = performance.now();
  // when the outcome was chosen (performance.now()), for the bounded teardown after it
  settledAt: number | undefined;
  dispatcher: CallDispatcher | undefined;
  // when the program went to the child (ms after startedAt): what came before is process start-up
  #handedOverMs: number | undefined;
  // work the result waits for once the run settled (a bindings host's last call reports), each bounded
  readonly finishing: Promise<void>[] = [];
  #outcome: Outcome | undefined;
  #closed = false;
  // entries already given to onLog
  #streamed = 0;
  #settledResolve: () => void = () => undefined;
  readonly settled = new Promise<void>((resolve) => (this.#settledResolve = resolve));
  // aborts once the outcome is chosen: a call waiting for a decision stops waiting
  readonly #ended = new AbortController();
  // the program's deadline while it runs (armDeadline): stands still while a call waits for a decision
  deadline: { pause(): void; resume(): void } | undefined;
  // calls waiting for a decision now, and the time at least one waited (undefined: none ever did)
  #waiting = 0;
  #waitStart = 0;
  #pausedMs: number | undefined;

  constructor(
    readonly spec: CodeRunSpec,
    readonly sandbox: SandboxReport,
  ) {
    this.ledger = new OutputLedger(spec.maxOutputBytes, { maxEntries: maxLogEntries(spec.maxOutputBytes) });
  }

  get outcome(): Outcome | undefined {
    return this.#outcome;
  }

  createDispatcher(
    options: Omit<DispatcherOptions, 'namespaces' | 'maxPendingCalls' | 'maxCalls' | 'startedAt'>,
  ): CallDispatcher {
    this.dispatcher = new CallDispatcher({
      ...options,
      namespaces: this.spec.bindings,
      maxPendingCalls: this.spec.maxPendingCalls,
      maxCalls: this.spec.maxCalls,
      startedAt: this.startedAt,
    });
    return this.dispatcher;
  }

  // Adds log text to the ledger (continuing the stream's open entry, see OutputLedger.admit) and streams each entry to
  // onLog once it is complete; overflow settles the run as output-limit. Output still draining from pipes after the
  // outcome is known is kept until the result is built.
  log(stream: 'stdout' | 'stderr', text: string, open = false): boolean {
    if (this.#closed) return false;
    const { fitted } = this.ledger.admit(text, stream, open);
    this.#streamEntries(false);
    if (!fitted) this.fail({ kind: 'output-limit', message: this.ledger.limitMessage() });
    return fitted;
  }

  // Entries not yet given to onLog, up to (or, at the end, including) an open one.
  #streamEntries(all: boolean): void {
    const count = this.ledger.length;
    const complete = all || this.ledger.openStream === undefined ? count : count - 1;
    const onLog = this.spec.onLog;
    if (onLog === undefined) {
      this.#streamed = complete;
      return;
    }
    for (; this.#streamed < complete; this.#streamed++) {
      const entry = this.ledger.entryAt(this.#streamed) as LedgerEntry;
      try {
        onLog({ text: entry.text, stream: entry.stream });
      } catch {
        // a failing observer must not change the run
      }
    }
  }

  // The program was sent to its child: call times before this are start-up, not the program's.
  markHandedOver(): void {
    this.#handedOverMs ??= Math.round((performance.now() - this.startedAt) * 1000) / 1000;
  }

  get ended(): AbortSignal {
    return this.#ended.signal;
  }

  // A call starts waiting for a decision: the deadline stands still until the last waiting call is decided.
  pauseBegins(): void {
    if (this.#waiting++ > 0) return;
    this.#waitStart = performance.now();
    this.deadline?.pause();
  }

  pauseEnds(): void {
    if (this.#waiting === 0 || --this.#waiting > 0) return;
    this.#pausedMs = (this.#pausedMs ?? 0) + (performance.now() - this.#waitStart);
    this.deadline?.resume();
  }

  fail(failure: RunFailure): void {
    this.settle({ kind: 'failed', failure });
  }

  settle(outcome: Outcome): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    this.settledAt = performance.now();
    this.dispatcher?.settle();
    this.#ended.abort(new Error('the run ended'));
    this.#settledResolve();
  }

  // Builds the one result shape; applies the shared ledger to the completion or diagnostic.
  result(): RunResult {
    this.#closed = true;
    let outcome = this.#outcome ?? {
      kind: 'failed',
      failure: { kind: 'worker-exit', message: 'run ended without an outcome' },
    };
    const limit = this.ledger.limitMessage();
    if (this.ledger.overflowed && outcome.kind === 'completed') {
      outcome = { kind: 'failed', failure: { kind: 'output-limit', message: limit } };
    }
    if (outcome.kind === 'completed' && !this.ledger.fits(outcome.valueBytes)) {
      outcome = { kind: 'failed', failure: { kind: 'output-limit', message: limit } };
    }
    if (outcome.kind === 'failed' && !this.ledger.fits(jsonStringCost(outcome.failure.message))) {
      const cost = jsonStringCost(limit);
      this.ledger.makeRoom(cost);
      outcome = { kind: 'failed', failure: { kind: 'output-limit', message: this.ledger.fits(cost) ? limit : '' } };
    }
    // an entry left open (a flushed fragment before a hang) is complete now
    this.#streamEntries(true);
    // the ledger's own lists: no copy of the logs (the ledger is closed from here on)
    const logs = this.ledger.texts as string[];
    const stderrLogs = this.ledger.stderrIndices as number[];
    const result: RunResult = {
      language: this.spec.language,
      logs,
      calls: this.dispatcher?.log.kept ?? [],
      sandbox: this.sandbox,
      durationMs: Math.round((performance.now() - this.startedAt) * 1000) / 1000,
    };
    if (stderrLogs.length > 0) result.stderrLogs = stderrLogs;
    if (this.#handedOverMs !== undefined) result.startupMs = this.#handedOverMs;
    // calls still waiting when the run ended waited until now
    if (this.#waiting > 0) {
      this.#waiting = 1;
      this.pauseEnds();
    }
    if (this.#pausedMs !== undefined) result.pausedMs = Math.round(this.#pausedMs * 1000) / 1000;
    const callSummary = this.dispatcher?.log.summary();
    if (callSummary !== undefined) result.callSummary = callSummary;
    if (outcome.kind === 'completed') {
      if (outcome.value !== undefined) result.value = outcome.value;
    } else result.error = outcome.failure;
    return orderKeys(result);
  }
}

// Stable key order so the CLI's JSON reads the same every time.
function orderKeys(result: RunResult): RunResult {
  const ordered: Record<string, unknown> = {};
  for (const key of [
    'language',
    'value',
    'logs',
    'stderrLogs',
    'error',
    'calls',
    'callSummary',
    'sandbox',
    'durationMs',
    'startupMs',
    'replay',
    'pausedMs',
    'mode',
  ] as const) {
    if (result[key] !== undefined) ordered[key] = result[key];
  }
  return ordered as RunResult;
}
