import type { BindingNamespace, DeterministicSettings } from '../api.js';
import type { BindingsHost } from '../bindings-host/bindings-host.js';
import type { DescribedModule } from '../bindings-host/wire.js';
import type { WarningSink } from '../bindings/module-format.js';
import type { RunResult } from '../protocol/run-result.js';
import {
  CASSETTE_VERSION,
  declaredFromCassette,
  declaredFromModule,
  DEFAULT_DETERMINISTIC,
  loadCassette,
  replayNamespaces,
  type Cassette,
} from '../replay/index.js';
import type { RunPlan, SetupStage } from './session-types.js';

export type ReplaySetup =
  | {
      ok: true;
      namespaces: BindingNamespace[];
      deterministic: DeterministicSettings | undefined;
      // the host loaded the module (its connection may be lent to the run)
      hostReady: boolean;
      // marks the result as a replay and warns about recorded calls it did not use; a message where the run called a
      // binding with no cassette to answer it (the run then stands for nothing)
      finish(result: RunResult): string | undefined;
    }
  | { ok: false; stage: SetupStage; message: string };

// A replay serves every call from its cassette and runs no handler, so an MCP server that cannot start (offline,
// not installed) costs only the schema-drift check: the same for a `ptc run --replay` and a notebook cell.
export async function prepareReplay(options: {
  plan: Extract<RunPlan, { mode: 'replay' }>;
  host: BindingsHost | undefined;
  bound: { signal?: AbortSignal; timeoutMs?: number };
  deterministic: boolean | undefined;
  warn: WarningSink;
}): Promise<ReplaySetup> {
  const { plan, host, warn } = options;
  const loaded = await loadCassette(plan.cassettePath);
  // a cell never recorded still replays: one that calls no binding needs no cassette; one that does fails its setup
  // as before, once the call shows a cassette was needed
  const absent =
    !loaded.ok && plan.cassetteName !== undefined && loaded.message.includes('ENOENT')
      ? `no cassette for this cell at ${plan.cassettePath}: record the cell first`
      : undefined;
  if (!loaded.ok && absent === undefined) return { ok: false, stage: 'cassette', message: loaded.message };
  const cassette: Cassette = loaded.ok ? loaded.cassette : { version: CASSETTE_VERSION, calls: [] };
  let module: DescribedModule | undefined;
  if (host !== undefined) {
    const ready = await host.ready(options.bound);
    if (!ready.ok) return { ok: false, stage: 'bindings', message: ready.message };
    module = ready.module;
    for (const ns of Object.values(module.namespaces)) {
      if (ns.toolsUnlisted === true)
        warn(
          `${ns.problem ?? 'an MCP server could not start'}\n(continuing without the server's tool list: its functions are the ones the cassette recorded)`,
        );
    }
    for (const drift of await host.drift(cassette)) warn(`schema drift: ${drift}`);
  }
  const deterministic = replayDeterminism(cassette, options.deterministic, warn);
  const replay = replayNamespaces(
    cassette,
    module === undefined ? declaredFromCassette(cassette) : declaredFromModule(module, cassette),
    absent === undefined ? {} : { absent },
  );
  return {
    ok: true,
    namespaces: replay.namespaces,
    deterministic,
    hostReady: module !== undefined,
    finish: (result) => {
      result.replay = replay.report();
      result.mode = 'replay';
      if (absent !== undefined) return result.replay.diverged.length > 0 ? absent : undefined;
      if (result.replay.unused > 0)
        warn(`${result.replay.unused} recorded call(s) in ${plan.cassettePath} were not used by this replay`);
      return undefined;
    },
  };
}

// A cassette recorded with a frozen clock replays with the same one, unless the caller said not to (and is told).
function replayDeterminism(
  cassette: Cassette,
  asked: boolean | undefined,
  warn: WarningSink,
): DeterministicSettings | undefined {
  if (asked === true) return cassette.deterministic ?? DEFAULT_DETERMINISTIC;
  if (asked === false) {
    if (cassette.deterministic !== undefined)
      warn('the cassette was recorded with --deterministic; add it to reproduce clock and random values');
    return undefined;
  }
  return cassette.deterministic;
}
