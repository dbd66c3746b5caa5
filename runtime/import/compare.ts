import { canonicalJson } from '../json/lossless.js';
import type { CallRecord, RunResult } from '../protocol/run-result.js';
import { runCodeText } from './model-text.js';
import { type KeptCalls, keptCalls } from './run-calls.js';
import type { ThenCall, ThenRecord } from './then-record.js';

// How a run ("now") compares with what the transcript recorded ("then").
export interface Comparison {
  agrees: boolean;
  // one line per difference, in program order: calls first, then output, then outcome
  differences: string[];
  // what could not be compared, and why
  skipped?: string;
}

const MAX_DIFFERENCES = 20;
const SHOWN = 120;

export function compareWithTranscript(then: ThenRecord, now: RunResult): Comparison {
  const kept = keptCalls(now);
  const differences = [...compareCalls(then.calls, kept), ...compareOutput(then, now)];
  const shown =
    differences.length > MAX_DIFFERENCES
      ? [...differences.slice(0, MAX_DIFFERENCES), `… ${differences.length - MAX_DIFFERENCES} more`]
      : differences;
  const skipped = [
    ...(then.skipped === undefined ? [] : [then.skipped]),
    ...(kept.omitted > 0
      ? [
          `the run kept ${kept.calls.length} of its ${kept.total} calls one by one, so the others were compared by count`,
        ]
      : []),
  ];
  return {
    agrees: differences.length === 0,
    differences: shown,
    ...(skipped.length === 0 ? {} : { skipped: skipped.join('; ') }),
  };
}

const label = (c: { global: string; name: string; args: unknown }): string =>
  `${c.global}.${c.name}(${short(canonicalJson(c.args as never))})`;
const keyOf = (c: { global: string; name: string; args: unknown }): string =>
  `${c.global}\u0000${c.name}\u0000${canonicalJson(c.args as never)}`;

// Calls match by name and arguments whatever their order (parallel calls finish in any order). When the run only
// counted some of its calls, a recorded call without a kept match may be among them: the totals are compared instead.
function compareCalls(then: readonly ThenCall[], kept: KeptCalls): string[] {
  const out: string[] = [];
  const unused = new Map<string, CallRecord[]>();
  if (kept.omitted > 0 && kept.total !== then.length)
    out.push(`the program made ${then.length} calls then but ${kept.total} now`);
  for (const call of kept.calls) {
    const key = keyOf(call);
    const queue = unused.get(key);
    if (queue === undefined) unused.set(key, [call]);
    else queue.push(call);
  }
  then.forEach((recorded, i) => {
    const match = unused.get(keyOf(recorded))?.shift();
    if (match === undefined) {
      if (kept.omitted === 0) out.push(`call ${i + 1} of the transcript, ${label(recorded)}, was not made`);
      return;
    }
    if (recorded.pending === true) return;
    if (recorded.ok !== match.ok)
      out.push(
        `${label(recorded)} ${recorded.ok ? 'succeeded' : 'failed'} then but ${match.ok ? 'succeeded' : 'failed'} now`,
      );
    else if (recorded.ok && canonicalJson(recorded.value ?? null) !== canonicalJson(match.value ?? null))
      out.push(`${label(recorded)} answered differently`);
    else if (!recorded.ok && recorded.message !== match.message)
      out.push(`${label(recorded)} failed with a different message`);
  });
  if (kept.omitted === 0)
    for (const left of unused.values())
      for (const call of left) out.push(`${label(call)} was called now but not in the transcript`);
  return out;
}

function compareOutput(then: ThenRecord, now: RunResult): string[] {
  const out: string[] = [];
  const failedThen = then.error !== undefined;
  const failedNow = now.error !== undefined;
  switch (then.compare) {
    case 'stdout': {
      if (then.skipped === undefined) {
        const { thenText, nowText } = comparedTexts(then, now);
        if (nowText !== thenText) out.push(textDifference('stdout', thenText, nowText));
      }
      if (failedThen !== failedNow)
        out.push(
          failedThen
            ? 'the program failed then but succeeded now'
            : `the program succeeded then but failed now (${now.error?.kind})`,
        );
      else if (then.error?.kind === 'timeout' && now.error?.kind !== 'timeout')
        out.push(`the program timed out then but failed differently now (${now.error?.kind})`);
      break;
    }
    case 'text': {
      const { thenText, nowText } = comparedTexts(then, now);
      if (nowText !== thenText) out.push(textDifference('program output', thenText, nowText));
      if (failedNow) out.push(`the program failed now (${now.error?.kind}: ${short(now.error?.message ?? '')})`);
      break;
    }
    case 'model-text': {
      // a failure's message is runtime-specific (stack frames, paths): failed runs compare kind and captured output
      if (then.error !== undefined && now.error !== undefined) {
        if (then.error.kind !== now.error.kind)
          out.push(`the run failed as ${then.error.kind} then but as ${now.error.kind} now`);
        if (then.logs.join('\n') !== now.logs.join('\n'))
          out.push(textDifference('captured output', then.logs.join('\n'), now.logs.join('\n')));
        break;
      }
      const { thenText, nowText } = comparedTexts(then, now);
      if (nowText !== thenText) out.push(textDifference('run_code text', thenText, nowText));
      break;
    }
    case 'result': {
      if (then.logs.join('\n') !== now.logs.join('\n'))
        out.push(textDifference('printed output', then.logs.join('\n'), now.logs.join('\n')));
      const a = then.value === undefined ? undefined : canonicalJson(then.value);
      const b = now.value === undefined ? undefined : canonicalJson(now.value);
      if (a !== b)
        out.push(
          `the return value differs: ${a === undefined ? 'none' : short(a)} then, ${b === undefined ? 'none' : short(b)} now`,
        );
      if (then.error?.kind !== now.error?.kind)
        out.push(
          `the outcome differs: ${then.error === undefined ? 'success' : then.error.kind} then, ${now.error === undefined ? 'success' : now.error.kind} now`,
        );
      break;
    }
  }
  return out;
}

// The output as the model saw it then, next to the same view of the run now (the inspector shows them side by side).
export function comparedTexts(then: ThenRecord, now: RunResult): { label: string; thenText: string; nowText: string } {
  switch (then.compare) {
    case 'stdout': {
      const stderr = new Set(now.stderrLogs ?? []);
      return {
        label: 'stdout',
        thenText: trimNewline(then.modelText ?? then.logs.join('\n')),
        nowText: now.logs.filter((_, i) => !stderr.has(i)).join('\n'),
      };
    }
    case 'text':
      return {
        label: 'program output',
        thenText: trimNewline(then.modelText ?? then.logs.join('\n')),
        nowText: now.logs.join('\n'),
      };
    case 'model-text':
      return { label: 'run_code text', thenText: then.modelText ?? '', nowText: runCodeText(now) };
    case 'result':
      return { label: 'run_code text', thenText: runCodeText(then), nowText: runCodeText(now) };
  }
}

function trimNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

// Names the first differing line.
function textDifference(what: string, then: string, now: string): string {
  const a = then.split('\n');
  const b = now.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `${what} differs at line ${i + 1}: ${a[i] === undefined ? '(nothing)' : JSON.stringify(short(a[i] as string))} then, ${b[i] === undefined ? '(nothing)' : JSON.stringify(short(b[i] as string))} now`;
}

function short(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}
