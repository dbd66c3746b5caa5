import {
  argsPathProblem,
  callCount,
  type JsonValue,
  type RunResult,
  type SessionRunRequest,
} from '../../runtime/index.js';
import type { Translate } from '../l10n.js';
import { errorMessage } from '../../runtime/index.js';

// The VS Code-free half of pausing calls from the editor: the shapes (derived from the session's request, so the
// runtime's vocabulary is written once), breakpoints as a person types and reads them, and JSON typed into a box.

export type PauseRequest = NonNullable<SessionRunRequest['pauses']>;
export type PauseDecider = NonNullable<PauseRequest['onPause']>;
export type PausedCall = Parameters<PauseDecider>[0];
export type PauseControl = Parameters<PauseDecider>[1];
export type CallDecision = Awaited<ReturnType<PauseDecider>>;
export type CallBreakpoints = NonNullable<PauseRequest['breakpoints']>;
export type ArgsCondition = NonNullable<CallBreakpoints['conditions']>[number];
export type ForkSpec = NonNullable<PauseRequest['fork']>;
export type ForkAnswer = ForkSpec['answer'];

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

// The union of a notebook's and a cell's breakpoints, or undefined when neither breaks anywhere.
export function mergeBreakpoints(...all: readonly (CallBreakpoints | undefined)[]): CallBreakpoints | undefined {
  const every = all.some((points) => points?.every === true);
  const bindings = [...new Set(all.flatMap((points) => points?.bindings ?? []))];
  const conditions = all.flatMap((points) => points?.conditions ?? []);
  if (!every && bindings.length === 0 && conditions.length === 0) return undefined;
  return {
    ...(every ? { every } : {}),
    ...(bindings.length === 0 ? {} : { bindings }),
    ...(conditions.length === 0 ? {} : { conditions }),
  };
}

// JSON typed by a person: the value, or what is wrong with the text.
export function parseJsonText(text: string, t: Translate): Parsed<JsonValue> {
  if (text.trim() === '') return { ok: false, message: t('Type a JSON value (for example null, 42, "text" or {})') };
  try {
    return { ok: true, value: JSON.parse(text) as JsonValue };
  } catch (error) {
    return { ok: false, message: t('Not JSON: {0}', errorMessage(error)) };
  }
}

const BINDING = /^[A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*$/;

// A condition as typed: `[binding] <path> == <json>`, e.g. `tools.search $.q == "cats"` or `$.limit == 5`.
export function parseCondition(text: string, t: Translate): Parsed<ArgsCondition> {
  const at = text.indexOf('==');
  if (at < 0)
    return { ok: false, message: t('Write a condition as [binding] $.path == JSON, e.g. tools.search $.q == "cats"') };
  const left = text
    .slice(0, at)
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '');
  const [first, second] = left;
  if (first === undefined || left.length > 2)
    return { ok: false, message: t('Write a condition as [binding] $.path == JSON, e.g. tools.search $.q == "cats"') };
  const binding = second === undefined ? undefined : first;
  const path = second ?? first;
  if (binding !== undefined && !BINDING.test(binding))
    return {
      ok: false,
      message: t('"{0}" is not a binding: name one as namespace.function, e.g. tools.search', binding),
    };
  const problem = argsPathProblem(path);
  if (problem !== undefined) return { ok: false, message: problem };
  const value = parseJsonText(text.slice(at + 2), t);
  if (!value.ok) return value;
  return { ok: true, value: { ...(binding === undefined ? {} : { binding }), path, equals: value.value } };
}

// One condition as a person reads (and types) it.
export function conditionText(condition: ArgsCondition): string {
  return `${condition.binding === undefined ? '' : `${condition.binding} `}${condition.path} == ${JSON.stringify(condition.equals)}`;
}

// Where a cell breaks, in a few words (a status bar item, a quick pick's detail).
export function describeBreakpoints(points: CallBreakpoints | undefined, t: Translate): string {
  if (points === undefined) return t('no call breakpoints');
  if (points.every === true) return t('breaks on every call');
  const parts = [...(points.bindings ?? []), ...(points.conditions ?? []).map(conditionText)];
  return t('breaks on {0}', parts.join(', '));
}

// `tools.search({"q":"cats"})`, its arguments cut to `max` characters.
export function callLabel(call: Pick<PausedCall, 'global' | 'name' | 'args'>, max = 80): string {
  const args = JSON.stringify(call.args) ?? 'undefined';
  return `${call.global}.${call.name}(${args.length > max ? `${args.slice(0, max - 1)}…` : args})`;
}

// The message a denied approval rejects with (the namespace's error class carries it to the program).
export function deniedMessage(call: Pick<PausedCall, 'global' | 'name'>): string {
  return `${call.global}.${call.name} was denied by the user`;
}

// Run from call `at` of a shown run: its calls before `at` are answered as they were, call `at` with `answer`, the rest
// as the cell's mode says. Refused when the run does not hold every call (a summarized result) or `at` is not one.
export function forkOfRun(result: RunResult, at: number, answer: ForkAnswer, t: Translate): Parsed<ForkSpec> {
  const total = callCount(result);
  if (result.calls.length < total)
    return {
      ok: false,
      message: t('This run keeps {0} of its {1} calls: run from a call needs them all.', result.calls.length, total),
    };
  if (!Number.isSafeInteger(at) || at < 1 || at > result.calls.length)
    return {
      ok: false,
      message:
        result.calls.length === 0
          ? t('This run made no binding calls to run from.')
          : t('Call {0} is not in this run: it has calls 1 to {1}.', at, result.calls.length),
    };
  const calls = [...result.calls]
    .sort((a, b) => a.id - b.id)
    .map((call) => ({
      global: call.global,
      name: call.name,
      args: call.args,
      ok: call.ok,
      durationMs: call.durationMs,
      ...(call.ok
        ? { value: call.value ?? null }
        : call.message === undefined
          ? { pending: true as const }
          : { message: call.message }),
    }));
  return { ok: true, value: { calls, at, answer } };
}
