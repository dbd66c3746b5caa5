import { describe, expect, test } from 'vitest';
import { diffRuns } from '../../../webview/shared/run-diff.js';
import { untranslated } from '../../../webview/shared/translate.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

describe('diffRuns', () => {
  test('finds the first divergence in the calls of a live run and its replay', () => {
    const diff = diffRuns(fixturePayload('diff-live').result, fixturePayload('diff-replay').result, untranslated);
    expect(diff.first).toEqual({ section: 'calls', row: 2, description: 'call #3 tools.fetch: args, outcome differ' });
    expect(diff.calls.filter((c) => c.differences.length > 0)).toHaveLength(1);
    expect(diff.outcome.same).toBe(false);
    expect(diff.logs.map((r) => r.op)).toEqual(['same', 'removed']);
  });

  test('reports no divergence for two identical runs', () => {
    const run = fixturePayload('success').result;
    const diff = diffRuns(run, structuredClone(run), untranslated);
    expect(diff.first).toBeUndefined();
    expect(diff.calls.every((c) => c.differences.length === 0)).toBe(true);
  });

  test('compares arguments canonically (key order does not matter) but values exactly', () => {
    const left = fixturePayload('success').result;
    const right = structuredClone(left);
    right.calls[0]!.args = { limit: 3, q: 'vscode notebooks' };
    expect(diffRuns(left, right, untranslated).first).toBeUndefined();
    right.calls[0]!.value = [];
    expect(diffRuns(left, right, untranslated).first).toEqual({
      section: 'calls',
      row: 0,
      description: 'call #1 tools.search: value differ',
    });
  });

  test('falls through to printed output, then value, then outcome', () => {
    const left = fixturePayload('success').result;
    const logs = structuredClone(left);
    logs.logs[0] = 'found 4 hits';
    expect(diffRuns(left, logs, untranslated).first?.section).toBe('logs');
    const value = structuredClone(left);
    value.value = { changed: true };
    expect(diffRuns(left, value, untranslated).first?.section).toBe('value');
    const outcome = structuredClone(left);
    outcome.error = { kind: 'abort', message: 'x' };
    expect(diffRuns(left, outcome, untranslated).first?.section).toBe('outcome');
  });
});
