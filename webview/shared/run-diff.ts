import type { CallRecord, RunResult } from '../../runtime/protocol/run-result.js';
import { callLabel, keptCalls } from './call-flags.js';
import { canonicalJson } from './canonical-json.js';
import { jsonText } from './json-text.js';
import { diffLines, firstDifference, type DiffRow } from './line-diff.js';
import type { Translate } from './translate.js';

export type CallField = 'missing' | 'name' | 'args' | 'outcome' | 'value' | 'message';

export interface CallDiffRow {
  index: number;
  left: CallRecord | undefined;
  right: CallRecord | undefined;
  // the fields that differ; empty when the two calls agree
  differences: CallField[];
}

export type DivergenceSection = 'calls' | 'logs' | 'value' | 'outcome';

export interface Divergence {
  section: DivergenceSection;
  // row index within the section
  row: number;
  description: string;
}

export interface RunDiff {
  calls: CallDiffRow[];
  logs: DiffRow[];
  value: DiffRow[];
  outcome: { left: string; right: string; same: boolean };
  // the earliest point where the runs part ways, in execution order: calls, then printed output, value, outcome
  first: Divergence | undefined;
}

// Compares two runs: calls in order, printed output and the pretty-printed value line by line, and the outcome.
// `t` words the outcomes and the divergence description (the inspector passes l10n.t).
export function diffRuns(left: RunResult, right: RunResult, t: Translate): RunDiff {
  // a summarized run is compared on the calls it keeps in full
  const calls = diffCalls(keptCalls(left), keptCalls(right));
  const logs = diffLines(splitEntries(left.logs), splitEntries(right.logs));
  const value = diffLines(valueLines(left), valueLines(right));
  const outcome = {
    left: outcomeText(left, t),
    right: outcomeText(right, t),
    same: outcomeText(left, t) === outcomeText(right, t),
  };
  return { calls, logs, value, outcome, first: firstDivergence({ calls, logs, value, outcome }, t) };
}

// Aligns calls by name and arguments (so one extra call does not shift every later row), then compares answers.
function diffCalls(left: readonly CallRecord[], right: readonly CallRecord[]): CallDiffRow[] {
  const a = byStart(left);
  const b = byStart(right);
  const key = (c: CallRecord): string => `${c.global}\u0000${c.name}\u0000${canonicalJson(c.args)}`;
  return diffLines(a.map(key), b.map(key)).map((row, index) => {
    const l = row.op === 'added' ? undefined : a[row.leftNo - 1];
    const r = row.op === 'removed' ? undefined : b[row.rightNo - 1];
    return {
      index,
      left: l,
      right: r,
      differences: l === undefined || r === undefined ? ['missing'] : callDifferences(l, r),
    };
  });
}

// calls in the order the program made them (ids follow submission order)
function byStart(calls: readonly CallRecord[]): CallRecord[] {
  return [...calls].sort((x, y) => x.id - y.id);
}

function callDifferences(l: CallRecord, r: CallRecord): CallField[] {
  const out: CallField[] = [];
  if (l.global !== r.global || l.name !== r.name) out.push('name');
  if (canonicalJson(l.args) !== canonicalJson(r.args)) out.push('args');
  if (l.ok !== r.ok) out.push('outcome');
  else if (l.ok && canonicalJson(l.value) !== canonicalJson(r.value)) out.push('value');
  else if (!l.ok && l.message !== r.message) out.push('message');
  return out;
}

function splitEntries(logs: readonly string[]): string[] {
  return logs.flatMap((entry) => entry.split('\n'));
}

function valueLines(result: RunResult): string[] {
  return result.value === undefined ? [] : jsonText(result.value, { indent: 2 }).split('\n');
}

function outcomeText(result: RunResult, t: Translate): string {
  return result.error === undefined
    ? t('succeeded')
    : t('failed ({0}): {1}', result.error.kind, result.error.message.split('\n')[0] ?? '');
}

function fieldText(field: CallField, t: Translate): string {
  switch (field) {
    case 'missing':
      return t('presence');
    case 'name':
      return t('name');
    case 'args':
      return t('args');
    case 'outcome':
      return t('outcome');
    case 'value':
      return t('value');
    case 'message':
      return t('message');
  }
}

function firstDivergence(diff: Omit<RunDiff, 'first'>, t: Translate): Divergence | undefined {
  const { calls, logs, value, outcome } = diff;
  const call = calls.findIndex((c) => c.differences.length > 0);
  if (call !== -1) {
    const row = calls[call] as CallDiffRow;
    const which = row.left ?? row.right;
    const what =
      row.differences[0] === 'missing'
        ? row.left === undefined
          ? t('only in the right run')
          : t('only in the left run')
        : t('{0} differ', row.differences.map((f) => fieldText(f, t)).join(', '));
    const description =
      which === undefined ? t('call: {0}', what) : t('call #{0} {1}: {2}', which.id, callLabel(which), what);
    return { section: 'calls', row: call, description };
  }
  const log = firstDifference(logs);
  if (log !== -1) return { section: 'logs', row: log, description: t('printed output, line {0}', log + 1) };
  const val = firstDifference(value);
  if (val !== -1) return { section: 'value', row: val, description: t('return value, line {0}', val + 1) };
  if (!outcome.same) return { section: 'outcome', row: 0, description: t('outcome differs') };
  return undefined;
}
