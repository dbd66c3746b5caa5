import type { BindingNamespace, DeterministicSettings } from '../api.js';
import type { BindingsHost } from '../bindings-host/bindings-host.js';
import type { DescribedModule } from '../bindings-host/wire.js';
import type { WarningSink } from '../bindings/module-format.js';
import type { RunResult } from '../protocol/run-result.js';
import {
  CASSETTE_VERSION,
  declaredFromModule,
  loadCassette,
  replayFromCassette,
  type Cassette,
} from '../replay/index.js';
import type { RunPlan, SetupStage } from './session-types.js';
import { cassetteToRead } from './legacy-cassette.js';

export type ReplaySetup =
  | {
      ok: true;
      namespaces: BindingNamespace[];
      deterministic: DeterministicSettings | undefined;
      // the host loaded the module (its connection may be lent to the run)
      hostReady: boolean;
      module: DescribedModule | undefined;
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
  // the first calls are answered elsewhere (a fork's prefix and edit): the replay serves the recording after them
  skip?: number;
}): Promise<ReplaySetup> {
  const { plan, host, warn } = options;
  const file = await cassetteToRead(plan);
  const loaded = await loadCassette(file);
  // a cell never recorded still replays: one that calls no binding needs no cassette; one that does fails its setup
  // as before, once the call shows a cassette was needed
  const absent =
    !loaded.ok && plan.cassetteName !== undefined && loaded.message.includes('ENOENT')
      ? `no cassette for this cell at ${plan.cassettePath}: record the cell first`
      : undefined;
  if (!loaded.ok && absent === undefined) return { ok: false, stage: 'cassette', message: loaded.message };
  const recorded: Cassette = loaded.ok ? loaded.cassette : { version: CASSETTE_VERSION, calls: [] };
  const cassette = options.skip === undefined ? recorded : { ...recorded, calls: recorded.calls.slice(options.skip) };
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
  const replay = replayFromCassette(cassette, {
    ...(module === undefined ? {} : { declared: declaredFromModule(module, cassette) }),
    deterministic: options.deterministic,
    warn,
    where: file,
    ...(absent === undefined ? {} : { absent }),
  });
  return { ok: true, ...replay, hostReady: module !== undefined, module };
}
