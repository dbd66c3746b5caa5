import type { BindingNamespace, DeterministicSettings } from '../api.js';
import type { BindingsHost } from '../bindings-host/bindings-host.js';
import type { DescribedModule } from '../bindings-host/wire.js';
import type { WarningSink } from '../bindings/module-format.js';
import type { RunResult } from '../protocol/run-result.js';
import { declaredFromModule, loadCassette, replayFromCassette } from '../replay/index.js';
import type { RunPlan, SetupStage } from './session-types.js';

export type ReplaySetup =
  | {
      ok: true;
      namespaces: BindingNamespace[];
      deterministic: DeterministicSettings | undefined;
      // the host loaded the module (its connection may be lent to the run)
      hostReady: boolean;
      module: DescribedModule | undefined;
      // marks the result as a replay and warns about recorded calls it did not use
      finish(result: RunResult): void;
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
  const loaded = await loadCassette(plan.cassettePath);
  if (!loaded.ok) {
    const missing = plan.cassetteName !== undefined && loaded.message.includes('ENOENT');
    return {
      ok: false,
      stage: 'cassette',
      message: missing ? `no cassette for this cell at ${plan.cassettePath}: record the cell first` : loaded.message,
    };
  }
  const cassette =
    options.skip === undefined
      ? loaded.cassette
      : { ...loaded.cassette, calls: loaded.cassette.calls.slice(options.skip) };
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
    where: plan.cassettePath,
  });
  return { ok: true, ...replay, hostReady: module !== undefined, module };
}
