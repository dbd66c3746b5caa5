import * as z from 'zod/mini';
import { parseMaskPath, type MaskSegment } from '../json/mask-path.js';
import { JsonValueSchema, type JsonValue } from './json-value.js';

// Pausing a binding call before its handler runs (browser-safe, zod/mini): where a run stops (breakpoints, approvals,
// the recorded prefix of a fork), what decides it (continue, answer, throw), and what a result and a cassette keep of
// it. The gate below is evaluated where calls are dispatched (the bindings host, or the runtime in a replay); the
// decision comes from the front end. The program only sees a call that takes longer, then resolves or rejects.

// `ask`: a person decides each call; `allow`: never asks; `deny`: refused without asking.
export const ApprovalPolicySchema = z.enum(['ask', 'allow', 'deny']);
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

// One condition over a call's arguments: the value at `path` (`$`, `$.q`, `$.items[0].id`) equals `equals`.
export const ArgsConditionSchema = z.strictObject({
  // `tools.search`; unset: any binding
  binding: z.optional(z.string()),
  path: z.string(),
  equals: JsonValueSchema,
});
export type ArgsCondition = z.infer<typeof ArgsConditionSchema>;

// Where calls break: every call, calls of chosen bindings (`tools.search`), calls whose arguments meet a condition.
export const CallBreakpointsSchema = z.strictObject({
  every: z.optional(z.boolean()),
  bindings: z.optional(z.array(z.string())),
  conditions: z.optional(z.array(ArgsConditionSchema)),
});
export type CallBreakpoints = z.infer<typeof CallBreakpointsSchema>;

// What the dispatching side is told of a run's pauses (the open-run frame): plain data, never code.
export const CallGateSpecSchema = z.strictObject({
  breakpoints: z.optional(CallBreakpointsSchema),
  // bindings (`tools.send`) whose calls wait for an approval decision (policy ask or deny)
  approvals: z.optional(z.array(z.string())),
  // calls 1..forkThrough are answered by the front end (a fork's recorded prefix and its edited call)
  forkThrough: z.optional(z.int().check(z.positive())),
});
export type CallGateSpec = z.infer<typeof CallGateSpecSchema>;

export const PauseReasonSchema = z.enum(['breakpoint', 'approval', 'fork']);
export type PauseReason = z.infer<typeof PauseReasonSchema>;

// How a paused call goes on. `continue` runs the handler (with edited `args` if given: an approval's edit); `answer`
// resolves the call with `value`; `throw` rejects it with the namespace's error class and `message`. `step`: break
// again on the run's next call.
export const CallDecisionSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('continue'), args: z.optional(JsonValueSchema), step: z.optional(z.boolean()) }),
  z.strictObject({ kind: z.literal('answer'), value: JsonValueSchema, step: z.optional(z.boolean()) }),
  z.strictObject({ kind: z.literal('throw'), message: z.string(), step: z.optional(z.boolean()) }),
]);
export type CallDecision = z.infer<typeof CallDecisionSchema>;

// What a call record and a cassette keep of a pause: why, what was decided, by whom, how long the run waited.
export const CallPauseSchema = z.strictObject({
  reason: PauseReasonSchema,
  decision: z.enum(['continue', 'answer', 'throw']),
  // a person, an approval policy or `--approve`, the recording a fork replays, the fork's edit
  by: z.enum(['user', 'policy', 'recording', 'edit']),
  // the arguments the handler got instead of the program's (an approval's edit)
  args: z.optional(JsonValueSchema),
  pausedMs: z.number().check(z.nonnegative()),
});
export type CallPause = z.infer<typeof CallPauseSchema>;

// A paused call as the front end is shown it.
export interface PausedCall {
  id: number;
  global: string;
  name: string;
  args: JsonValue;
  reason: PauseReason;
}

// The pause of a call the spec stops, or undefined; `stepping`: the previous decision asked to break on this call.
export function pauseReason(
  spec: CallGateSpec,
  call: { id: number; global: string; name: string; args: JsonValue },
  stepping = false,
): PauseReason | undefined {
  if (spec.forkThrough !== undefined && call.id <= spec.forkThrough) return 'fork';
  const label = `${call.global}.${call.name}`;
  if (spec.approvals?.includes(label) === true) return 'approval';
  const points = spec.breakpoints;
  if (stepping || points?.every === true || points?.bindings?.includes(label) === true) return 'breakpoint';
  for (const condition of points?.conditions ?? []) {
    if (condition.binding !== undefined && condition.binding !== label) continue;
    const path = parseMaskPath(condition.path);
    if (path.ok && valuesAt(call.args, path.segments).some((value) => sameJson(value, condition.equals)))
      return 'breakpoint';
  }
  return undefined;
}

// The problem with an argument path (`$.q`, `$.items[0]["a b"]`, `$.items[*].id`), or undefined when it reads.
export function argsPathProblem(path: string): string | undefined {
  const parsed = parseMaskPath(path);
  return parsed.ok ? undefined : parsed.message.replace('mask path', 'argument path');
}

// The values at a path (several where it has `*`), breadth first and bounded by the path's length.
function valuesAt(root: JsonValue, segments: readonly MaskSegment[]): JsonValue[] {
  let at: JsonValue[] = [root];
  for (const segment of segments) {
    const next: JsonValue[] = [];
    for (const value of at) {
      if (value === null || typeof value !== 'object') continue;
      if ('any' in segment) next.push(...(Array.isArray(value) ? value : Object.values(value)));
      else if ('index' in segment) {
        if (Array.isArray(value) && segment.index < value.length) next.push(value[segment.index] as JsonValue);
      } else if (!Array.isArray(value) && Object.hasOwn(value, segment.key)) next.push(value[segment.key] as JsonValue);
    }
    at = next;
  }
  return at;
}

// Deep equality of two JSON values, object key order ignored (as deep as the smaller one: `expected` is a person's).
function sameJson(actual: JsonValue, expected: JsonValue): boolean {
  if (actual === expected) return true;
  if (actual === null || expected === null || typeof actual !== 'object' || typeof expected !== 'object') return false;
  if (Array.isArray(actual) || Array.isArray(expected)) {
    if (!Array.isArray(actual) || !Array.isArray(expected) || actual.length !== expected.length) return false;
    return expected.every((item, index) => sameJson(actual[index] as JsonValue, item));
  }
  const keys = Object.keys(expected);
  return (
    keys.length === Object.keys(actual).length &&
    keys.every((key) => Object.hasOwn(actual, key) && sameJson(actual[key] as JsonValue, expected[key] as JsonValue))
  );
}

// A run's pauses, as a session hands them to the runtime: the gate (data, evaluated where calls are dispatched) and
// how a held call goes on. `signal` aborts when the run ends while the call waits (Stop, the deadline before it).
export interface RunPauses {
  readonly gate: CallGateSpec;
  decide(call: PausedCall, signal: AbortSignal): Promise<{ decision: CallDecision; by: CallPause['by'] }>;
}
