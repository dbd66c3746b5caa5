import fs from 'node:fs/promises';
import path from 'node:path';
import type { BindingNamespace, DeterministicSettings, LogEntry, Runtime, SandboxLevel } from '../api.js';
import type { BindingsModule, WarningSink } from '../bindings/module-format.js';
import { namespacesFor } from '../bindings/module-loader.js';
import { RuntimeMisuseError } from '../contract/misuse.js';
import type { Language, RunResult } from '../protocol/run-result.js';
import {
  cassetteDrift,
  createRecorder,
  declaredFromCassette,
  declaredFromModule,
  DEFAULT_DETERMINISTIC,
  loadCassette,
  type Recorder,
  replayNamespaces,
  type Replay,
  saveCassette,
} from '../replay/index.js';
import type { BindingsCache, BindingsLease } from './bindings-cache.js';
import { LIMITS } from '../contract/limits.js';
import { type CallListener, observeNamespaces } from './observe.js';
import type { RunPlan } from './plan.js';

export interface RunLimits {
  timeoutMs?: number;
  maxOutputBytes?: number;
  memoryMb?: number;
  tmpMb?: number;
  sandbox?: SandboxLevel;
}

export interface CellRunRequest {
  language: Language;
  program: string;
  plan: RunPlan;
  // absolute path of the bindings module, if the notebook has one
  bindingsPath: string | undefined;
  limits: RunLimits;
  cwd: string;
  // frozen clock and seeded random values: recorded into the cassette, reused by its replays
  deterministic?: boolean;
  signal?: AbortSignal;
  onLog?: (entry: LogEntry) => void;
  onCall?: CallListener;
  // schema drift, unused recorded calls, handler warnings: shown by the host, never part of the program's output
  onWarning?: WarningSink;
}

// Why a cell could not start; shown on the cell, never a silent failure.
export type SetupStage = 'bindings' | 'cassette' | 'request';

export type CassetteWrite = { ok: true; path: string; calls: number } | { ok: false; path: string; message: string };

export type CellOutcome = { kind: 'result'; result: RunResult; cassette?: CassetteWrite } | { kind: 'setup-failed'; stage: SetupStage; message: string };

export interface CellRunnerDeps {
  runtime: Runtime;
  bindings: BindingsCache;
}

// Runs one notebook cell: the single code path behind the extension's controller and `ptc notebook`.
export class CellRunner {
  readonly #deps: CellRunnerDeps;

  constructor(deps: CellRunnerDeps) {
    this.#deps = deps;
  }

  // Never rejects for anything the program, the bindings module or a cassette does.
  async run(request: CellRunRequest): Promise<CellOutcome> {
    const warn: WarningSink = request.onWarning ?? (() => undefined);
    let module: BindingsModule | undefined;
    let release = (): void => undefined;
    if (request.bindingsPath !== undefined) {
      const lease = await boundedLoad(this.#deps.bindings.load(request.bindingsPath), request);
      if (!lease.ok) return { kind: 'setup-failed', stage: 'bindings', message: lease.message };
      module = lease.module;
      release = lease.release;
    }
    try {
      return await this.#runWith(request, module, warn);
    } finally {
      release();
    }
  }

  async #runWith(request: CellRunRequest, module: BindingsModule | undefined, warn: WarningSink): Promise<CellOutcome> {
    const { plan } = request;
    let deterministic: DeterministicSettings | undefined = request.deterministic === true ? DEFAULT_DETERMINISTIC : undefined;
    let namespaces: BindingNamespace[] = [];
    let replay: Replay | undefined;
    let recorder: Recorder | undefined;
    if (plan.mode === 'replay') {
      const loaded = await loadCassette(plan.cassettePath);
      if (!loaded.ok) {
        const missing = loaded.message.includes('ENOENT');
        return {
          kind: 'setup-failed',
          stage: 'cassette',
          message: missing ? `no cassette for this cell at ${plan.cassettePath}: record the cell first` : loaded.message,
        };
      }
      const cassette = loaded.cassette;
      if (module !== undefined) for (const drift of cassetteDrift(cassette, module)) warn(`schema drift: ${drift}`);
      // a cassette recorded with a frozen clock replays with the same one
      if (cassette.deterministic !== undefined) deterministic = cassette.deterministic;
      replay = replayNamespaces(cassette, module !== undefined ? declaredFromModule(module) : declaredFromCassette(cassette));
      namespaces = replay.namespaces;
    } else if (module !== undefined) {
      const handlers = plan.mode === 'record' ? plan.handlers : plan.mode;
      namespaces = namespacesFor(module, handlers, { onWarning: warn, ...(deterministic === undefined ? {} : { seed: deterministic.seed }) });
    }
    if (plan.mode === 'record') {
      recorder = createRecorder();
      namespaces = recorder.wrap(namespaces);
    }
    if (request.onCall !== undefined) namespaces = observeNamespaces(namespaces, request.onCall);
    let result: RunResult;
    try {
      const spec = this.#deps.runtime.resolve({
        language: request.language,
        program: request.program,
        bindings: namespaces,
        cwd: request.cwd,
        ...definedLimits(request.limits),
        ...(deterministic === undefined ? {} : { deterministic }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(request.onLog === undefined ? {} : { onLog: request.onLog }),
      });
      result = await this.#deps.runtime.run(spec);
    } catch (error) {
      if (error instanceof RuntimeMisuseError) return { kind: 'setup-failed', stage: 'request', message: error.message };
      throw error;
    }
    if (replay !== undefined) {
      result.replay = replay.report();
      result.mode = 'replay';
      if (result.replay.unused > 0) warn(`${result.replay.unused} recorded call(s) were not used by this replay`);
      return { kind: 'result', result };
    }
    result.mode = plan.mode === 'record' ? plan.handlers : plan.mode;
    if (recorder === undefined || plan.mode !== 'record') return { kind: 'result', result };
    if (result.error?.kind === 'abort') {
      return { kind: 'result', result, cassette: { ok: false, path: plan.cassettePath, message: 'the run was cancelled, so the cassette was not written' } };
    }
    const cassette = recorder.cassette(deterministic === undefined ? {} : { deterministic });
    try {
      await fs.mkdir(path.dirname(plan.cassettePath), { recursive: true });
      await saveCassette(plan.cassettePath, cassette);
      return { kind: 'result', result, cassette: { ok: true, path: plan.cassettePath, calls: cassette.calls.length } };
    } catch (error) {
      return {
        kind: 'result',
        result,
        cassette: { ok: false, path: plan.cassettePath, message: `cannot write ${plan.cassettePath}: ${(error as Error).message}` },
      };
    }
  }
}

// An import cannot be cancelled: a module whose top-level await never settles would hold the cell (and the
// notebook's queue behind it) forever. The cell's deadline and its cancel button also bound the load; a lease that
// arrives after the cell gave up is released at once.
async function boundedLoad(load: Promise<BindingsLease>, request: CellRunRequest): Promise<BindingsLease> {
  const file = request.bindingsPath ?? '';
  const ms = request.limits.timeoutMs ?? LIMITS.timeoutMs.default;
  let timer: NodeJS.Timeout | undefined;
  let onAbort = (): void => undefined;
  const gaveUp = new Promise<BindingsLease>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, path: file, message: `the bindings module did not finish loading within ${ms} ms (a top-level await that never settles?)` }),
      ms,
    );
    onAbort = () => resolve({ ok: false, path: file, message: 'cancelled while the bindings module was loading' });
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const winner = await Promise.race([load, gaveUp]);
  clearTimeout(timer);
  request.signal?.removeEventListener('abort', onAbort);
  // gave up (or the load itself failed): a module that still arrives is handed back
  if (!winner.ok) void load.then((late) => (late.ok ? late.release() : undefined));
  return winner;
}

function definedLimits(limits: RunLimits): RunLimits {
  const out: RunLimits = {};
  if (limits.timeoutMs !== undefined) out.timeoutMs = limits.timeoutMs;
  if (limits.maxOutputBytes !== undefined) out.maxOutputBytes = limits.maxOutputBytes;
  if (limits.memoryMb !== undefined) out.memoryMb = limits.memoryMb;
  if (limits.tmpMb !== undefined) out.tmpMb = limits.tmpMb;
  if (limits.sandbox !== undefined) out.sandbox = limits.sandbox;
  return out;
}
