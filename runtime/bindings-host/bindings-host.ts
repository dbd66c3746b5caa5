import fs from 'node:fs';
import path from 'node:path';
import type { BindingNamespace } from '../api.js';
import { LIMITS } from '../contract/limits.js';
import type { ChildChannel, HostedBindings, HostedRunLink, HostedRunOptions } from '../protocol/hosted-bindings.js';
import type { CallEvent, CallStartListener } from '../bindings/observe.js';
import type { Cassette } from '../replay/cassette-format.js';
import type { JsonValue } from '../protocol/json-value.js';
import { ChildChannels } from './child-channels.js';
import { HostProcess, type FlightEntry, type HostEnd } from './host-process.js';
import { HostedRun } from './hosted-run.js';
import type { DescribedModule, FromHostFrame } from './wire.js';
import { errorMessage } from '../output/error-message.js';
import { within } from '../process/timers.js';

// Where a bindings host is, like a notebook kernel's status.
export type BindingsHostState = 'stopped' | 'starting' | 'ready' | 'busy' | 'crashed' | 'failed';

export interface BindingsHostStatus {
  state: BindingsHostState;
  // absolute path of the bindings module
  module: string;
  // why it crashed or failed to load
  detail?: string;
}

export interface BindingsHostOptions {
  // absolute path of the bindings module
  modulePath: string;
  // working directory of the host process (handlers resolve relative paths against it)
  cwd?: string;
  // the bindings' own console output and uncaught errors, line by line
  onLog?: (entry: { stream: 'stdout' | 'stderr'; text: string }) => void;
  onStatus?: (status: BindingsHostStatus) => void;
}

export type HostReady = { ok: true; module: DescribedModule } | { ok: false; message: string };

export interface LeaseOptions {
  mode: 'mock' | 'live';
  // seeds mock fault injection
  seed: number;
  // false: the runtime serves the calls itself (replay); the host only supplies names
  routeCalls: boolean;
  // handler warnings (output schema violations)
  onWarning?: (message: string) => void;
  onCall?: (event: CallEvent) => void;
  onCallStart?: CallStartListener;
}

const INTERRUPT_WAIT_MS = 1_000;
const DRIFT_WAIT_MS = 5_000;

interface Generation {
  id: number;
  process: HostProcess;
  stamp: string | undefined;
  // resolves once the process is up and importing (or ended)
  loading: Promise<void>;
  resolveLoading: () => void;
  loaded: Promise<HostReady>;
  resolveLoaded: (ready: HostReady) => void;
  module: DescribedModule | undefined;
  loadProblem: string | undefined;
  channels: ChildChannels | undefined;
  runs: Map<number, HostedRun>;
  runWarnings: Map<number, (message: string) => void>;
  // why the runtime itself stopped it (a restart), used in messages instead of "was stopped"
  stopReason: string | undefined;
  end: HostEnd | undefined;
  interrupted: ((calls: number) => void)[];
  drifts: Map<number, (warnings: string[]) => void>;
  checks: Map<number, (problems: string[]) => void>;
}

let generations = 0;
let runIds = 0;
let driftIds = 0;

async function fileStamp(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.promises.stat(file);
    return stat.isFile() ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

// Describes how a host ended, for "bindings host … while tools.x was running".
function describeEnd(end: HostEnd, generation: Generation): string {
  if (end.kind === 'unresponsive') return 'stopped responding';
  if (end.kind === 'broken') return `broke its protocol (${end.message})`;
  if (end.kind === 'stopped') return generation.stopReason ?? 'was stopped';
  const { code, signal } = end.exit;
  return signal !== null ? `was killed by ${signal}` : `exited with code ${String(code)}`;
}

// The process that runs one bindings module's code (a kernel for tools): started on first use, replaced when it
// crashes, stops responding or the module file changes, restarted and interrupted on request. Runs lease it: their
// program children call it directly, and it reports every call back here.
export class BindingsHost {
  readonly modulePath: string;
  readonly #options: BindingsHostOptions;
  #generation: Generation | undefined;
  #status: BindingsHostStatus;
  #disposed = false;
  // one start at a time: concurrent runs share it
  #starting: Promise<Generation> | undefined;

  constructor(options: BindingsHostOptions) {
    this.modulePath = path.resolve(options.modulePath);
    this.#options = options;
    this.#status = { state: 'stopped', module: this.modulePath };
  }

  get status(): BindingsHostStatus {
    return this.#status;
  }

  // The module, loaded in a live host: starts one if there is none, the last one ended, or the file changed since.
  // Never rejects. `timeoutMs` bounds the load (a top-level await that never settles); the host is then stopped.
  async ready(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<HostReady> {
    if (this.#disposed) return { ok: false, message: 'the bindings host is disposed' };
    const stamp = await fileStamp(this.modulePath);
    if (stamp === undefined) return { ok: false, message: `bindings module not found: ${this.modulePath}` };
    let generation = this.#generation;
    if (
      generation === undefined ||
      generation.end !== undefined ||
      generation.loadProblem !== undefined ||
      generation.stamp !== stamp
    ) {
      if (
        generation !== undefined &&
        generation.end === undefined &&
        generation.loadProblem === undefined &&
        generation.stamp !== stamp
      )
        await this.#stop(generation, 'was restarted because the bindings module changed');
      generation = await (this.#starting ??= this.#start(stamp).finally(() => (this.#starting = undefined)));
    }
    const loading = generation;
    // the host's own start-up is not the module's load time: a loaded machine must not fail a short deadline for it
    const up = await bounded(loading.loading, {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      timeoutMs: LIMITS.startupMs,
    });
    if (up === 'aborted') return { ok: false, message: 'cancelled while the bindings module was loading' };
    const waited = up === 'timeout' ? 'timeout' : await bounded(loading.loaded, options);
    if (waited === 'timeout') {
      const message =
        up === 'timeout'
          ? `the bindings host did not start within ${LIMITS.startupMs} ms`
          : `the bindings module did not finish loading within ${options.timeoutMs} ms (a top-level await that never settles?)`;
      loading.loadProblem = message;
      loading.resolveLoaded({ ok: false, message });
      await this.#stop(loading, 'was stopped: the module did not finish loading');
      this.#setStatus({ state: 'failed', module: this.modulePath, detail: message });
      return { ok: false, message };
    }
    if (waited === 'aborted') return { ok: false, message: 'cancelled while the bindings module was loading' };
    return waited;
  }

  // A file watcher's word that the module changed. A host that loaded (or is loading) the very file on disk stays:
  // watchers also report a file's creation after the fact, and that late event used to stop the load a first run was
  // waiting on. Any other state restarts, as `restart` does.
  async restartIfChanged(reason: string): Promise<HostReady> {
    const current = this.#generation;
    const stamp = await fileStamp(this.modulePath);
    const unchanged = current !== undefined && current.end === undefined && current.stamp === stamp;
    return unchanged ? this.ready() : this.restart(reason);
  }

  // Stops the current host (its calls fail naming the restart) and starts a fresh one.
  async restart(reason = 'was restarted'): Promise<HostReady> {
    const current = this.#generation;
    if (current !== undefined && current.end === undefined) await this.#stop(current, reason);
    this.#generation = undefined;
    return this.ready();
  }

  // Every call the host is running fails now ("tools.x was interrupted") and its handler sees its abort signal;
  // a host too stuck to answer within a second is killed and replaced for the next run. Resolves with the count.
  async interrupt(): Promise<number> {
    const generation = this.#generation;
    if (generation === undefined || generation.end !== undefined || generation.module === undefined) return 0;
    const answered = new Promise<number>((resolve) => generation.interrupted.push(resolve));
    generation.process.send({ type: 'interrupt' });
    const calls = await within(answered, INTERRUPT_WAIT_MS, undefined);
    if (calls !== undefined) return calls;
    const running = [...generation.runs.values()].reduce((n, run) => n + run.inFlight, 0);
    generation.process.kill('unresponsive');
    return running;
  }

  // Where a cassette no longer fits the module's schemas (checked in the host: schemas compile to code there only).
  async drift(cassette: Cassette): Promise<string[]> {
    const generation = this.#generation;
    if (generation === undefined || generation.end !== undefined || generation.module === undefined) return [];
    const request = ++driftIds;
    const answered = new Promise<string[]>((resolve) => generation.drifts.set(request, resolve));
    generation.process.send({ type: 'drift', request, cassette });
    const warnings = await within(answered, DRIFT_WAIT_MS, [] as string[]);
    generation.drifts.delete(request);
    return warnings;
  }

  // Where `value` breaks the output schema of `global.name` (checked in the host, like drift); [] without a schema.
  async checkAnswer(global: string, name: string, value: JsonValue): Promise<string[]> {
    const generation = this.#generation;
    if (generation === undefined || generation.end !== undefined || generation.module === undefined) return [];
    const request = ++driftIds;
    const answered = new Promise<string[]>((resolve) => generation.checks.set(request, resolve));
    generation.process.send({ type: 'check-answer', request, global, name, value });
    const problems = await within(answered, DRIFT_WAIT_MS, [] as string[]);
    generation.checks.delete(request);
    return problems;
  }

  // What one run uses of the live host; call after `ready()` succeeded.
  lease(options: LeaseOptions): HostedBindings {
    const generation = this.#generation;
    if (generation === undefined || generation.module === undefined || generation.channels === undefined) {
      throw new Error('BindingsHost.lease() needs a loaded host: await ready() first');
    }
    const channels = generation.channels;
    let link: HostedRun | undefined;
    const namespaces: BindingNamespace[] = Object.entries(generation.module.namespaces).map(([global, ns]) => {
      const functions: BindingNamespace['functions'] = Object.create(null);
      for (const name of Object.keys(ns.functions)) {
        // reached only after the host is gone: the child then sends its calls to the runtime
        const fallback = (): Promise<never> => Promise.reject(new Error(link?.lost ?? 'bindings host is not running'));
        Object.defineProperty(functions, name, { value: fallback, enumerable: true });
      }
      return ns.errorClass === undefined ? { global, functions } : { global, functions, errorClass: ns.errorClass };
    });
    return {
      channelKey: `bindings-host-${generation.id}`,
      routeCalls: options.routeCalls,
      namespaces,
      prepare: () => channels.prepare(),
      takeChannel: (): ChildChannel | undefined => channels.take(),
      channelReady: () => channels.ready,
      begin: (run: HostedRunOptions): HostedRunLink => {
        link = this.#begin(generation, options, run);
        return link;
      },
      lost: () => link?.lost,
    };
  }

  // Stops the host and its MCP servers (bounded); later calls to ready() fail.
  async dispose(): Promise<void> {
    this.#disposed = true;
    const generation = this.#generation;
    if (generation !== undefined && generation.end === undefined) await this.#stop(generation, 'was stopped');
    this.#setStatus({ state: 'stopped', module: this.modulePath });
  }

  #begin(generation: Generation, lease: LeaseOptions, run: HostedRunOptions): HostedRun {
    const id = ++runIds;
    const hosted = new HostedRun({
      run: id,
      options: run,
      closeRun: (runId) => generation.process.send({ type: 'close-run', run: runId }),
      responsive: () => generation.process.responsive,
      readFlight: () => generation.process.readFlight(),
      decide: (runId, callId, decision) =>
        generation.process.send({ type: 'decide', run: runId, id: callId, decision }),
      ...(lease.onCall === undefined ? {} : { onCall: lease.onCall }),
      ...(lease.onCallStart === undefined ? {} : { onCallStart: lease.onCallStart }),
      onActivity: () => this.#refresh(),
    });
    generation.runs.set(id, hosted);
    if (lease.onWarning !== undefined) generation.runWarnings.set(id, lease.onWarning);
    if (generation.end !== undefined) {
      hosted.lose(describeEnd(generation.end, generation));
    } else {
      generation.process.send({
        type: 'open-run',
        run: id,
        token: run.token,
        mode: lease.mode,
        seed: lease.seed >>> 0,
        codec: run.codec,
        maxPendingCalls: run.maxPendingCalls,
        ...(run.maxCalls === undefined ? {} : { maxCalls: run.maxCalls }),
        ...(run.gate === undefined ? {} : { gate: run.gate }),
        startedAtEpochMs: performance.timeOrigin + run.startedAt,
      });
    }
    return hosted;
  }

  async #start(stamp: string): Promise<Generation> {
    let resolveLoaded: (ready: HostReady) => void = () => undefined;
    const loaded = new Promise<HostReady>((resolve) => (resolveLoaded = resolve));
    let resolveLoading: () => void = () => undefined;
    const loading = new Promise<void>((resolve) => (resolveLoading = resolve));
    const generation: Generation = {
      id: ++generations,
      process: undefined as unknown as HostProcess,
      stamp,
      loading,
      resolveLoading,
      loaded,
      resolveLoaded,
      module: undefined,
      loadProblem: undefined,
      channels: undefined,
      runs: new Map(),
      runWarnings: new Map(),
      stopReason: undefined,
      end: undefined,
      interrupted: [],
      drifts: new Map(),
      checks: new Map(),
    };
    this.#generation = generation;
    this.#setStatus({ state: 'starting', module: this.modulePath });
    try {
      generation.process = new HostProcess({
        modulePath: this.modulePath,
        cwd: this.#options.cwd ?? process.cwd(),
        onFrame: (frame) => this.#receive(generation, frame),
        onLog: (stream, text) => this.#options.onLog?.({ stream, text }),
        onEnd: (end, flight) => this.#ended(generation, end, flight),
      });
    } catch (error) {
      const message = `could not start the bindings host: ${errorMessage(error)}`;
      generation.end = { kind: 'broken', message };
      generation.loadProblem = message;
      resolveLoaded({ ok: false, message });
      resolveLoading();
      this.#setStatus({ state: 'failed', module: this.modulePath, detail: message });
      return generation;
    }
    generation.process.send({ type: 'init', module: this.modulePath, socketPath: generation.process.socketPath });
    return generation;
  }

  #receive(generation: Generation, frame: FromHostFrame): void {
    switch (frame.type) {
      case 'loading':
        return generation.resolveLoading();
      case 'loaded':
        generation.resolveLoading();
        if (generation.module !== undefined || generation.loadProblem !== undefined) return;
        generation.module = frame.module;
        generation.channels = new ChildChannels(generation.process.socketPath);
        generation.process.watch();
        generation.resolveLoaded({ ok: true, module: frame.module });
        return this.#refresh();
      case 'load-failed':
        if (generation.module !== undefined || generation.loadProblem !== undefined) return;
        generation.loadProblem = frame.message;
        generation.resolveLoaded({ ok: false, message: frame.message });
        this.#setStatus({ state: 'failed', module: this.modulePath, detail: frame.message });
        // a module that failed to load is retried afresh on the next run
        void this.#stop(generation, 'was stopped: the module failed to load');
        return;
      case 'calls': {
        const run = generation.runs.get(frame.run);
        if (frame.started !== undefined) run?.started(frame.started);
        if (frame.finished !== undefined) run?.finished(frame.finished);
        return;
      }
      case 'protocol':
        return generation.runs.get(frame.run)?.protocol(frame.message, frame.kind);
      case 'warning': {
        const sink = frame.run === undefined ? undefined : generation.runWarnings.get(frame.run);
        if (sink !== undefined) sink(frame.message);
        else this.#options.onLog?.({ stream: 'stderr', text: `warning: ${frame.message}` });
        return;
      }
      case 'run-closed': {
        const run = generation.runs.get(frame.run);
        generation.runs.delete(frame.run);
        generation.runWarnings.delete(frame.run);
        run?.closedByHost();
        return this.#refresh();
      }
      case 'interrupted':
        for (const resolve of generation.interrupted.splice(0)) resolve(frame.calls);
        return;
      case 'drift':
        generation.drifts.get(frame.request)?.(frame.warnings);
        return;
      case 'paused':
        return generation.runs.get(frame.run)?.paused(frame.id, frame.reason);
      case 'answer-checked':
        generation.checks.get(frame.request)?.(frame.problems);
        return;
      case 'heartbeat':
        return;
    }
  }

  #ended(generation: Generation, end: HostEnd, flight: FlightEntry[]): void {
    generation.end = end;
    generation.resolveLoading();
    for (const entry of flight) generation.runs.get(entry.run)?.started([entry.call]);
    generation.channels?.dispose();
    const what = describeEnd(end, generation);
    if (generation.module === undefined && generation.loadProblem === undefined) {
      const tail = generation.process?.lastError;
      const message = `the bindings host ${what} while loading ${this.modulePath}${tail ? `: ${tail}` : ''}`;
      generation.loadProblem = message;
      generation.resolveLoaded({ ok: false, message });
    }
    for (const run of generation.runs.values()) run.lose(what);
    generation.runs.clear();
    for (const resolve of generation.interrupted.splice(0)) resolve(0);
    for (const resolve of generation.drifts.values()) resolve([]);
    for (const resolve of generation.checks.values()) resolve([]);
    if (this.#generation !== generation || this.#disposed) return;
    if (end.kind === 'stopped') {
      if (generation.loadProblem === undefined) this.#setStatus({ state: 'stopped', module: this.modulePath });
      return;
    }
    if (generation.module === undefined)
      return this.#setStatus({ state: 'failed', module: this.modulePath, detail: generation.loadProblem ?? what });
    const tail = end.kind === 'exited' && generation.process.lastError ? `: ${generation.process.lastError}` : '';
    this.#setStatus({ state: 'crashed', module: this.modulePath, detail: `the bindings host ${what}${tail}` });
  }

  async #stop(generation: Generation, reason: string): Promise<void> {
    generation.stopReason ??= reason;
    generation.channels?.dispose();
    await generation.process?.stop();
  }

  #refresh(): void {
    const generation = this.#generation;
    if (generation === undefined || generation.end !== undefined || generation.module === undefined) return;
    const busy = [...generation.runs.values()].some((run) => run.inFlight > 0);
    this.#setStatus({ state: busy ? 'busy' : 'ready', module: this.modulePath });
  }

  #setStatus(status: BindingsHostStatus): void {
    const previous = this.#status;
    if (previous.state === status.state && previous.detail === status.detail && previous.module === status.module)
      return;
    this.#status = status;
    try {
      this.#options.onStatus?.(status);
    } catch {
      // a failing observer must not break the host's supervision
    }
  }
}

// The promise, the caller's abort or the deadline (when there is one), whichever comes first.
async function bounded<T>(
  promise: Promise<T>,
  options: { signal?: AbortSignal; timeoutMs?: number },
): Promise<T | 'timeout' | 'aborted'> {
  const { signal, timeoutMs } = options;
  if (signal?.aborted) return 'aborted';
  let onAbort = (): void => undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const raced = Promise.race([promise, aborted]);
    return timeoutMs === undefined ? await raced : await within(raced, timeoutMs, 'timeout' as const);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
