import type { BindingsHost } from '../bindings-host/bindings-host.js';
import type { DescribedModule } from '../bindings-host/wire.js';
import { canonicalJson } from '../json/lossless.js';
import { capText } from '../output/diagnostic.js';
import type { CassetteCall } from '../protocol/binding-call.js';
import type {
  ApprovalPolicy,
  CallBreakpoints,
  CallDecision,
  CallGateSpec,
  CallPause,
  PausedCall,
  RunPauses,
} from '../protocol/call-pause.js';
import type { JsonValue } from '../protocol/json-value.js';

// What a person is asked about a paused call: `problem` says why their last answer was refused (it broke the
// binding's output schema); `checkAnswer` tells where a value would break it before they choose it.
export interface PauseControl {
  signal: AbortSignal;
  problem?: string;
  checkAnswer(value: JsonValue): Promise<string[]>;
}

// Decides a call that waits for a person: a breakpoint, or an approval whose policy is `ask`.
export type PauseDecider = (call: PausedCall, control: PauseControl) => Promise<CallDecision>;

// The edited outcome of a fork's call N.
export type ForkAnswer = { ok: true; value: JsonValue } | { ok: false; message: string };

// Run from call N: calls 1…N−1 answered as `calls` recorded them, call N with `answer`, the rest as the plan says.
export interface ForkSpec {
  calls: readonly CassetteCall[];
  at: number;
  answer: ForkAnswer;
}

export interface PauseRequest {
  breakpoints?: CallBreakpoints;
  // approval policies by binding (`tools.send`), over the bindings module's own (notebook metadata, a command line)
  approvals?: Record<string, ApprovalPolicy>;
  onPause?: PauseDecider;
  fork?: ForkSpec;
}

// Why a fork cannot start (its call index is not in the recording), or undefined.
export function forkProblem(fork: ForkSpec): string | undefined {
  const { at, calls } = fork;
  if (!Number.isSafeInteger(at) || at < 1 || at > calls.length)
    return calls.length === 0
      ? `cannot fork at call ${at}: the recording has no calls`
      : `cannot fork at call ${at}: the recording has calls 1 to ${calls.length}`;
  return undefined;
}

// The run's pauses, or undefined when nothing stops its calls. `replay`: the cassette holds every decision already,
// so approvals are not asked again.
export function runPauses(options: {
  request: PauseRequest;
  module: DescribedModule | undefined;
  host: BindingsHost | undefined;
  replay: boolean;
}): RunPauses | undefined {
  const { request, module, host } = options;
  const policies = options.replay ? new Map<string, ApprovalPolicy>() : approvalPolicies(module, request.approvals);
  const approvals = [...policies].filter(([, policy]) => policy !== 'allow').map(([label]) => label);
  const gate: CallGateSpec = {
    ...(request.breakpoints === undefined ? {} : { breakpoints: request.breakpoints }),
    ...(approvals.length === 0 ? {} : { approvals }),
    ...(request.fork === undefined ? {} : { forkThrough: request.fork.at }),
  };
  if (gate.breakpoints === undefined && gate.approvals === undefined && gate.forkThrough === undefined)
    return undefined;
  const checkAnswer = (call: PausedCall, value: JsonValue): Promise<string[]> =>
    host === undefined ? Promise.resolve([]) : host.checkAnswer(call.global, call.name, value);

  // A person's decision; an answer that breaks the output schema is refused and they are asked again.
  const ask = async (call: PausedCall, signal: AbortSignal, decider: PauseDecider): Promise<CallDecision> => {
    let problem: string | undefined;
    for (;;) {
      const control: PauseControl = {
        signal,
        checkAnswer: (value) => checkAnswer(call, value),
        ...(problem === undefined ? {} : { problem }),
      };
      const decision = await decider(call, control);
      if (decision.kind !== 'answer') return decision;
      const problems = await checkAnswer(call, decision.value);
      if (problems.length === 0) return decision;
      problem = `the answer does not match the output schema of ${call.global}.${call.name}: ${problems.join('; ')}`;
    }
  };

  return {
    gate,
    decide: async (call, signal) => {
      const label = `${call.global}.${call.name}`;
      if (call.reason === 'fork' && request.fork !== undefined) return forkDecision(call, request.fork);
      if (call.reason === 'approval') {
        const policy = policies.get(label) ?? 'ask';
        if (policy === 'deny')
          return { decision: { kind: 'throw', message: `${label} was denied (approval policy: deny)` }, by: 'policy' };
        if (request.onPause === undefined)
          return {
            decision: { kind: 'throw', message: `${label} needs approval and nobody can give it here: denied` },
            by: 'policy',
          };
      }
      if (request.onPause === undefined) return { decision: { kind: 'continue' }, by: 'policy' };
      return { decision: await ask(call, signal, request.onPause), by: 'user' };
    },
  };
}

// The module's approval policies, then the overrides (a binding the module does not declare is ignored).
function approvalPolicies(
  module: DescribedModule | undefined,
  overrides: Record<string, ApprovalPolicy> | undefined,
): Map<string, ApprovalPolicy> {
  const policies = new Map<string, ApprovalPolicy>();
  for (const [global, ns] of Object.entries(module?.namespaces ?? {}))
    for (const [name, fn] of Object.entries(ns.functions))
      if (fn.approval !== undefined) policies.set(`${global}.${name}`, fn.approval);
  for (const [label, policy] of Object.entries(overrides ?? {})) policies.set(label, policy);
  return policies;
}

const shown = (call: { global: string; name: string; args: JsonValue }): string =>
  `${call.global}.${call.name}(${capText(canonicalJson(call.args), 200)})`;

// A fork's call k: as recorded (k < N) or as edited (k = N), provided the program made the same call as the
// recording; otherwise it fails naming both (the fork diverged before its edit).
function forkDecision(call: PausedCall, fork: ForkSpec): { decision: CallDecision; by: CallPause['by'] } {
  const recorded = fork.calls[call.id - 1];
  const by = call.id === fork.at ? 'edit' : 'recording';
  if (
    recorded === undefined ||
    recorded.global !== call.global ||
    recorded.name !== call.name ||
    canonicalJson(recorded.args) !== canonicalJson(call.args)
  ) {
    const was = recorded === undefined ? 'nothing' : shown(recorded);
    return {
      decision: {
        kind: 'throw',
        message: `fork divergence: call ${call.id} is ${shown(call)} but the recording's call ${call.id} is ${was}`,
      },
      by,
    };
  }
  if (call.id === fork.at)
    return {
      decision: fork.answer.ok
        ? { kind: 'answer', value: fork.answer.value }
        : { kind: 'throw', message: fork.answer.message },
      by,
    };
  if (recorded.pending === true)
    return { decision: { kind: 'throw', message: 'the recording never answered this call' }, by };
  return {
    decision: recorded.ok
      ? { kind: 'answer', value: (recorded.value ?? null) as JsonValue }
      : { kind: 'throw', message: recorded.message ?? 'binding failed' },
    by,
  };
}
