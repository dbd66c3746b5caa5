import type { ExpectationReport, ExpectField, FieldMismatch } from '../protocol/expectation-report.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { RunResult } from '../protocol/run-result.js';
import type { ExpectedCall, Expectation } from '../notebook/expectation.js';
import { firstExactDifference, firstShapeDifference, snippet, type Difference } from '../json/json-compare.js';
import { parseMaskPath, type MaskSegment } from '../json/mask-path.js';

// The calls of a run as an expectation lists them: `global.name` and the arguments, in issue order.
export function callsOf(result: Pick<RunResult, 'calls'>): ExpectedCall[] {
  return result.calls.map((c) => ({ call: `${c.global}.${c.name}`, args: c.args }));
}

function parsedMasks(list: readonly string[] | undefined): MaskSegment[][] {
  const out: MaskSegment[][] = [];
  for (const text of list ?? []) {
    const parsed = parseMaskPath(text);
    if (parsed.ok) out.push(parsed.segments);
  }
  return out;
}

// Compares a finished run with a cell's expectation: the first difference of every compared field.
export function checkExpectation(expect: Expectation, result: RunResult): ExpectationReport {
  const checked: ExpectationReport['checked'] = [];
  const mismatches: FieldMismatch[] = [];
  const masked: NonNullable<ExpectationReport['masked']> = [];
  const note = (field: ExpectField, match: 'exact' | 'shape', difference: Difference | undefined): void => {
    checked.push({ field, match });
    if (difference !== undefined) mismatches.push({ field, match, ...difference });
  };
  const maskNote = (field: ExpectField, list: readonly string[] | undefined): void => {
    if (list !== undefined && list.length > 0) masked.push({ field, paths: [...list] });
  };

  const { value, logs, error, calls } = expect;
  if (value !== undefined && value.match !== 'ignore') {
    const masks = parsedMasks(value.mask);
    maskNote('value', value.mask);
    note(
      'value',
      value.match,
      value.match === 'exact'
        ? firstExactDifference(value.is, result.value, masks)
        : firstShapeDifference(value.is, result.value, masks),
    );
  }
  if (logs !== undefined && logs.match !== 'ignore') {
    const expected = logs.is ?? [];
    maskNote('logs', logs.mask);
    if (logs.match === 'exact')
      note('logs', 'exact', firstExactDifference(expected, result.logs, parsedMasks(logs.mask)));
    else
      // the shape of printed output is its number of lines
      note(
        'logs',
        'shape',
        expected.length === result.logs.length
          ? undefined
          : {
              path: '$',
              reason: `expected ${expected.length} printed line(s), got ${result.logs.length}`,
              expected: snippet(expected),
              actual: snippet(result.logs),
            },
      );
  }
  if (error !== undefined && error.match !== 'ignore')
    note('error', error.match, errorDifference(error.match, error.is ?? null, result.error));
  if (calls !== undefined && calls.match !== 'ignore') {
    maskNote('calls', calls.mask);
    const expected = (calls.is ?? []) as JsonValue[];
    const actual = callsOf(result) as JsonValue[];
    const masks = parsedMasks(calls.mask);
    note(
      'calls',
      calls.match,
      calls.match === 'exact'
        ? firstExactDifference(expected, actual, masks)
        : callShapeDifference(calls.is ?? [], callsOf(result), masks),
    );
  }
  return { ok: mismatches.length === 0, checked, mismatches, ...(masked.length === 0 ? {} : { masked }) };
}

function errorDifference(
  match: 'exact' | 'shape',
  expected: { kind: string; message?: string } | null,
  actual: RunResult['error'],
): Difference | undefined {
  const show = (e: { kind: string; message?: string } | null | undefined): string =>
    e === null || e === undefined
      ? 'no failure'
      : e.message === undefined
        ? e.kind
        : `${e.kind}: ${snippet(e.message)}`;
  if (expected === null)
    return actual === undefined
      ? undefined
      : { path: '$', reason: 'the run failed', expected: 'no failure', actual: show(actual) };
  if (actual === undefined)
    return { path: '$', reason: 'the run succeeded', expected: show(expected), actual: 'no failure' };
  if (expected.kind !== actual.kind)
    return { path: '$.kind', reason: 'a different failure kind', expected: show(expected), actual: show(actual) };
  if (match === 'exact' && expected.message !== undefined && expected.message !== actual.message)
    return {
      path: '$.message',
      reason: 'a different message',
      expected: snippet(expected.message),
      actual: snippet(actual.message),
    };
  return undefined;
}

// By shape, calls keep their names and order exactly; only their arguments are compared by shape.
function callShapeDifference(
  expected: readonly ExpectedCall[],
  actual: readonly ExpectedCall[],
  masks: readonly MaskSegment[][],
): Difference | undefined {
  const n = Math.min(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i] as ExpectedCall;
    const a = actual[i] as ExpectedCall;
    if (e.call !== a.call)
      return { path: `$[${i}].call`, reason: 'a different binding was called', expected: e.call, actual: a.call };
    // masks written against the call list (`$[*].args.id`) apply below this call's `args`
    const own = masks.flatMap((m) => {
      const [first, second, ...rest] = m;
      const index = first !== undefined && ('any' in first || ('index' in first && first.index === i));
      return index && second !== undefined && 'key' in second && second.key === 'args' ? [rest] : [];
    });
    const difference = firstShapeDifference(e.args, a.args, own);
    if (difference !== undefined) return { ...difference, path: `$[${i}].args${difference.path.slice(1)}` };
  }
  if (expected.length !== actual.length)
    return {
      path: `$[${n}]`,
      reason: `expected ${expected.length} call(s), got ${actual.length}`,
      expected: n < expected.length ? (expected[n] as ExpectedCall).call : '(no more calls)',
      actual: n < actual.length ? (actual[n] as ExpectedCall).call : '(no more calls)',
    };
  return undefined;
}
