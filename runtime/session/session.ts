import path from 'node:path';
import type { BindingNamespace, CodeRunRequest, DeterministicSettings, Runtime } from '../api.js';
import { createRuntime } from '../create-runtime.js';
import { BindingsHost } from '../bindings-host/bindings-host.js';
import type { DescribedModule } from '../bindings-host/wire.js';
import type { WarningSink } from '../bindings/module-format.js';
import { LIMITS } from '../contract/limits.js';
import { RuntimeMisuseError } from '../contract/misuse.js';
import type { HostedBindings } from '../protocol/hosted-bindings.js';
import { observeNamespaces } from '../bindings/observe.js';
import type { RunResult } from '../protocol/run-result.js';
import { cassetteFromResult, DEFAULT_DETERMINISTIC, saveCassette } from '../replay/index.js';
import { infrastructureProblem } from './infrastructure.js';
import { prepareReplay } from './replay-setup.js';
import { retireLegacyCassette } from './legacy-cassette.js';
import { forkProblem, runPauses } from './run-pauses.js';
import type { RunPauses } from '../protocol/call-pause.js';
import type {
  CassetteWrite,
  DescribeOutcome,
  RunLimits,
  RunPlan,
  Session,
  SessionOptions,
  SessionOutcome,
  SessionRunRequest,
  SetupStage,
} from './session-types.js';
import { makeDirsSync } from '../files/make-dirs.js';
import { errorMessage } from '../output/error-message.js';

// The one way a program runs with bindings, for every command and the extension alike: the bindings host's lifetime,
// mode, record and replay, determinism, limits and warnings are decided here, once.
export function createSession(options: SessionOptions = {}): Session {
  // made on first use: a session whose runs all come with a provider never makes one
  let own: Runtime | undefined;
  const runtimeOf = (request: SessionRunRequest): Runtime => {
    if (options.runtimeFor !== undefined) return options.runtimeFor(request.language);
    own ??= createRuntime();
    return own;
  };
  const bindingsPath = options.bindingsPath === undefined ? undefined : path.resolve(options.bindingsPath);
  const host =
    bindingsPath === undefined
      ? undefined
      : new BindingsHost({
          modulePath: bindingsPath,
          ...(options.bindingsCwd === undefined ? {} : { cwd: options.bindingsCwd }),
          ...(options.onBindingsLog === undefined ? {} : { onLog: options.onBindingsLog }),
          ...(options.onBindingsStatus === undefined ? {} : { onStatus: options.onBindingsStatus }),
        });
  let disposed = false;

  // A host whose module has every MCP server's tool list; one that lacks one is restarted once to retry.
  const fullModule = async (bound: { signal?: AbortSignal; timeoutMs?: number }): Promise<DescribeOutcome> => {
    if (host === undefined) return { ok: true, module: { path: '', namespaces: {} } };
    let ready = await host.ready(bound);
    if (ready.ok && problemOf(ready.module) !== undefined) {
      await host.restart('was restarted to retry an MCP server that could not start');
      ready = await host.ready(bound);
    }
    if (!ready.ok) return ready;
    const problem = problemOf(ready.module);
    return problem === undefined ? ready : { ok: false, message: problem };
  };

  // What a run's program sees and who answers it: a replay's cassette, or the host's handlers in the plan's mode.
  const setUp = async (
    request: SessionRunRequest,
  ): Promise<Prepared | { kind: 'setup-failed'; stage: SetupStage; message: string }> => {
    if (disposed) return { kind: 'setup-failed', stage: 'request', message: 'the session is disposed' };
    const warn: WarningSink = request.onWarning ?? (() => undefined);
    const bound = {
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      timeoutMs: request.limits?.timeoutMs ?? LIMITS.timeoutMs.default,
    };
    const { plan } = request;
    const prepared: Prepared = {
      bindings: [],
      hosted: undefined,
      deterministic: request.deterministic === true ? DEFAULT_DETERMINISTIC : undefined,
      finishReplay: undefined,
      pauses: undefined,
    };
    const fork = request.pauses?.fork;
    const forkIssue = fork === undefined ? undefined : forkProblem(fork);
    if (forkIssue !== undefined) return { kind: 'setup-failed', stage: 'request', message: forkIssue };
    let module: DescribedModule | undefined;
    if (plan.mode === 'replay') {
      const replay = await prepareReplay({
        plan,
        host,
        bound,
        deterministic: request.deterministic,
        warn,
        ...(fork === undefined ? {} : { skip: fork.at }),
      });
      if (!replay.ok) return { kind: 'setup-failed', stage: replay.stage, message: replay.message };
      module = replay.module;
      prepared.bindings =
        request.onCall === undefined && request.onCallStart === undefined
          ? replay.namespaces
          : observeNamespaces(replay.namespaces, request.onCall ?? (() => undefined), request.onCallStart);
      prepared.deterministic = replay.deterministic;
      prepared.finishReplay = replay.finish;
      // the program's calls are answered here; the host only lends its connection, so spares stay interchangeable
      if (host !== undefined && replay.hostReady)
        prepared.hosted = host.lease({ mode: 'mock', seed: 0, routeCalls: false });
    } else if (host !== undefined) {
      const loaded = await fullModule(bound);
      if (!loaded.ok) return { kind: 'setup-failed', stage: 'bindings', message: loaded.message };
      module = loaded.module;
      prepared.hosted = host.lease({
        mode: plan.mode === 'record' ? plan.handlers : plan.mode,
        seed: request.seed ?? prepared.deterministic?.seed ?? Math.floor(Math.random() * 2 ** 32),
        routeCalls: true,
        onWarning: warn,
        ...(request.onCall === undefined ? {} : { onCall: request.onCall }),
        ...(request.onCallStart === undefined ? {} : { onCallStart: request.onCallStart }),
      });
      prepared.bindings = prepared.hosted.namespaces;
    }
    if (request.pauses !== undefined) {
      // a fork's edited answer must fit the binding's output schema before anything runs
      const edit = fork === undefined ? undefined : fork.calls[fork.at - 1];
      if (fork?.answer.ok === true && edit !== undefined && host !== undefined && module !== undefined) {
        const problems = await host.checkAnswer(edit.global, edit.name, fork.answer.value);
        if (problems.length > 0)
          return {
            kind: 'setup-failed',
            stage: 'request',
            message: `the answer for call ${fork.at} (${edit.global}.${edit.name}) does not match its output schema: ${problems.join('; ')}`,
          };
      }
      prepared.pauses = runPauses({ request: request.pauses, module, host, replay: plan.mode === 'replay' });
    }
    return prepared;
  };

  const requestOf = (request: SessionRunRequest, prepared: Prepared): CodeRunRequest => ({
    language: request.language,
    program: request.program,
    bindings: prepared.bindings,
    ...(prepared.hosted === undefined ? {} : { hosted: prepared.hosted }),
    ...(prepared.pauses === undefined ? {} : { pauses: prepared.pauses }),
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    ...definedLimits({ ...(request.limits ?? {}), maxCalls: callBudget(request) }),
    ...(prepared.deterministic === undefined ? {} : { deterministic: prepared.deterministic }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    ...(request.onLog === undefined ? {} : { onLog: request.onLog }),
  });

  // Starts the bindings host and a spare process for runs like `request` ahead of the first (never runs it).
  const warm = async (request: SessionRunRequest): Promise<boolean> => {
    const prepared = await setUp(request);
    if ('kind' in prepared) return false;
    const target = runtimeOf(request);
    try {
      return await target.warm(target.resolve(requestOf(request, prepared)));
    } catch (error) {
      if (error instanceof RuntimeMisuseError) return false;
      throw error;
    }
  };

  const run = async (request: SessionRunRequest): Promise<SessionOutcome> => {
    const prepared = await setUp(request);
    if ('kind' in prepared) return prepared;
    const { plan } = request;
    const { deterministic, finishReplay } = prepared;
    let result: RunResult;
    const target = runtimeOf(request);
    try {
      result = await target.run(target.resolve(requestOf(request, prepared)));
    } catch (error) {
      if (error instanceof RuntimeMisuseError)
        return { kind: 'setup-failed', stage: 'request', message: error.message };
      throw error;
    }
    if (finishReplay !== undefined) {
      const unrecorded = finishReplay(result);
      return unrecorded === undefined
        ? { kind: 'result', result }
        : { kind: 'setup-failed', stage: 'cassette', message: unrecorded };
    }
    result.mode = plan.mode === 'record' ? plan.handlers : plan.mode;
    const infrastructure = infrastructureProblem(result, prepared.hosted?.lost());
    const outcome: SessionOutcome = {
      kind: 'result',
      result,
      ...(infrastructure === undefined ? {} : { infrastructure }),
    };
    if (plan.mode !== 'record') return outcome;
    // a recording of a machine's failure would replay it forever as the tools' answer
    const cassette: CassetteWrite =
      infrastructure === undefined
        ? await writeCassette(plan, result, deterministic)
        : {
            ok: false,
            path: plan.cassettePath,
            message: `the run failed outside the program (${infrastructure}), so the cassette was not written`,
          };
    return { ...outcome, cassette };
  };

  return {
    bindingsPath,
    bindings: host,
    run,
    warm,
    describe: (bound = {}) => fullModule(bound),
    dispose: async () => {
      disposed = true;
      await Promise.all([host?.dispose(), own?.dispose()]);
    },
  };
}

interface Prepared {
  bindings: BindingNamespace[];
  hosted: HostedBindings | undefined;
  deterministic: DeterministicSettings | undefined;
  finishReplay: ((result: RunResult) => string | undefined) | undefined;
  pauses: RunPauses | undefined;
}

// "No cassette written on abort": a cancelled recording would pass off a partial run as the real one.
async function writeCassette(
  plan: Extract<RunPlan, { mode: 'record' }>,
  result: RunResult,
  deterministic: DeterministicSettings | undefined,
): Promise<CassetteWrite> {
  const file = plan.cassettePath;
  if (result.error?.kind === 'abort')
    return { ok: false, path: file, message: 'the run was cancelled, so the cassette was not written' };
  const cassette = cassetteFromResult(result, deterministic === undefined ? {} : { deterministic });
  try {
    makeDirsSync(path.dirname(file));
    await saveCassette(file, cassette);
    await retireLegacyCassette(plan.legacy);
    return { ok: true, path: file, calls: cassette.calls.length };
  } catch (error) {
    return { ok: false, path: file, message: `cannot write ${file}: ${errorMessage(error)}` };
  }
}

function problemOf(module: DescribedModule): string | undefined {
  for (const ns of Object.values(module.namespaces))
    if (ns.toolsUnlisted === true) return ns.problem ?? 'an MCP server could not start';
  return undefined;
}

// The run's call budget: what was asked for, else a low one when live handlers answer (real APIs, real bills).
export function callBudget(request: Pick<SessionRunRequest, 'plan' | 'limits'>): number | undefined {
  const asked = request.limits?.maxCalls;
  if (asked !== undefined) return asked;
  const { plan } = request;
  const live = plan.mode === 'live' || (plan.mode === 'record' && plan.handlers === 'live');
  return live ? LIMITS.maxCalls.live : undefined;
}

function definedLimits(limits: RunLimits): RunLimits {
  const out: RunLimits = {};
  if (limits.timeoutMs !== undefined) out.timeoutMs = limits.timeoutMs;
  if (limits.maxOutputBytes !== undefined) out.maxOutputBytes = limits.maxOutputBytes;
  if (limits.memoryMb !== undefined) out.memoryMb = limits.memoryMb;
  if (limits.tmpMb !== undefined) out.tmpMb = limits.tmpMb;
  if (limits.sandbox !== undefined) out.sandbox = limits.sandbox;
  if (limits.engine !== undefined) out.engine = limits.engine;
  if (limits.maxCalls !== undefined) out.maxCalls = limits.maxCalls;
  return out;
}
