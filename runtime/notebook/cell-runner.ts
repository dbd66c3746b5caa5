import type { BindingNamespace, LogEntry, Runtime, SandboxLevel } from '../api.js';
import { namespacesFor } from '../bindings/module-loader.js';
import { RuntimeMisuseError } from '../contract/misuse.js';
import type { Language, RunResult } from '../protocol/run-result.js';
import type { BindingsCache } from './bindings-cache.js';
import type { CassetteLayer, CassetteSave } from './cassettes.js';
import { type CallListener, observeNamespaces } from './observe.js';
import type { RunPlan } from './plan.js';

export interface RunLimits {
  timeoutMs?: number;
  maxOutputBytes?: number;
  memoryMb?: number;
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
  signal?: AbortSignal;
  onLog?: (entry: LogEntry) => void;
  onCall?: CallListener;
}

// Why a cell could not start; shown on the cell, never a silent failure.
export type SetupStage = 'bindings' | 'cassette' | 'request';

export type CellOutcome =
  | { kind: 'result'; result: RunResult; cassette?: CassetteSave }
  | { kind: 'setup-failed'; stage: SetupStage; message: string };

export interface CellRunnerDeps {
  runtime: Runtime;
  bindings: BindingsCache;
  // absent until the record/replay layer is available; record/replay plans then fail with a clear message
  cassettes?: CassetteLayer;
}

// Runs one notebook cell: the single code path behind the extension's controller and `ptc notebook`.
export class CellRunner {
  readonly #deps: CellRunnerDeps;

  constructor(deps: CellRunnerDeps) {
    this.#deps = deps;
  }

  // Never rejects for anything the program, the bindings module or a cassette does.
  async run(request: CellRunRequest): Promise<CellOutcome> {
    const { plan } = request;
    let namespaces: BindingNamespace[] = [];
    if (request.bindingsPath !== undefined) {
      const loaded = await this.#deps.bindings.load(request.bindingsPath);
      if (!loaded.ok) return { kind: 'setup-failed', stage: 'bindings', message: loaded.message };
      namespaces = namespacesFor(loaded.module, plan.mode === 'record' ? plan.handlers : plan.mode === 'replay' ? 'mock' : plan.mode);
    }
    let finish: ((result: RunResult) => RunResult) | undefined;
    if (plan.mode === 'record' || plan.mode === 'replay') {
      const cassettes = this.#deps.cassettes;
      if (cassettes === undefined) {
        return { kind: 'setup-failed', stage: 'cassette', message: `${plan.mode} is not available: this build has no record/replay layer` };
      }
      if (plan.mode === 'replay') {
        const setup = await cassettes.replay({ cassettePath: plan.cassettePath, namespaces });
        if (!setup.ok) return { kind: 'setup-failed', stage: 'cassette', message: setup.message };
        namespaces = setup.namespaces;
        finish = setup.finish;
      }
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
        ...(request.signal === undefined ? {} : { signal: request.signal }),
        ...(request.onLog === undefined ? {} : { onLog: request.onLog }),
      });
      result = await this.#deps.runtime.run(spec);
    } catch (error) {
      if (error instanceof RuntimeMisuseError) return { kind: 'setup-failed', stage: 'request', message: error.message };
      throw error;
    }
    if (finish !== undefined) result = finish(result);
    result.mode = plan.mode === 'replay' ? 'replay' : plan.mode === 'record' ? plan.handlers : plan.mode;
    if (plan.mode === 'record' && this.#deps.cassettes !== undefined && result.error?.kind !== 'abort') {
      const cassette = await this.#deps.cassettes.save({ cassettePath: plan.cassettePath, result });
      return { kind: 'result', result, cassette };
    }
    return { kind: 'result', result };
  }
}

function definedLimits(limits: RunLimits): RunLimits {
  const out: RunLimits = {};
  if (limits.timeoutMs !== undefined) out.timeoutMs = limits.timeoutMs;
  if (limits.maxOutputBytes !== undefined) out.maxOutputBytes = limits.maxOutputBytes;
  if (limits.memoryMb !== undefined) out.memoryMb = limits.memoryMb;
  if (limits.sandbox !== undefined) out.sandbox = limits.sandbox;
  return out;
}
