import { describe, expect, test } from 'vitest';
import { FAILURE_KINDS, RunResultSchema } from '../../../runtime/protocol/run-result.js';
import { WEBVIEW_FAILURE_KINDS, WebviewRunResultSchema } from '../../../webview/protocol/run-result-schema.js';
import { fixtureNames, fixturePayload } from '../fixtures/run-results.mjs';

// The webview mirrors the runtime's RunResult schema in zod/mini; these cases keep the two in step.
const shallow = fixtureNames().filter((n) => n !== 'deep-5000' && n !== 'deep-200000' && n !== 'array-50000');

type Mutation = [string, (r: Record<string, unknown>) => void];
const mutations: Mutation[] = [
  ['a missing language', (r) => delete r.language],
  ['an unknown language', (r) => (r.language = 'ruby')],
  ['logs that are not strings', (r) => (r.logs = [1])],
  ['a negative stderr index', (r) => (r.stderrLogs = [-1])],
  ['a fractional call id', (r) => ((r.calls as Record<string, unknown>[])[0]!.id = 1.5)],
  ['a negative duration', (r) => (r.durationMs = -1)],
  ['an unknown enforcement level', (r) => ((r.sandbox as Record<string, unknown>).enforcement = 'strict')],
  ['an unknown mode', (r) => (r.mode = 'offline')],
  ['a zero location line', (r) => (r.error = { kind: 'exception', message: 'x', location: { line: 0 } })],
  ['a replay report without counts', (r) => (r.replay = { diverged: [] })],
  ['a call without ok', (r) => delete (r.calls as Record<string, unknown>[])[0]!.ok],
  ['a call summary without its total', (r) => (r.callSummary = { omitted: 0, byBinding: [], last: [] })],
  [
    'a call summary with a negative count',
    (r) => (r.callSummary = { total: 1, omitted: 0, byBinding: [{ global: 'g', name: 'n', calls: -1, ok: 0, failed: 0 }], last: [] }),
  ],
];

describe('the webview RunResult mirror', () => {
  test('lists the same failure kinds as the runtime', () => {
    expect([...WEBVIEW_FAILURE_KINDS]).toEqual([...FAILURE_KINDS]);
  });

  test('has the same fields as the runtime schema', () => {
    expect(Object.keys(WebviewRunResultSchema.shape).sort()).toEqual(Object.keys(RunResultSchema.shape).sort());
  });

  test.each(shallow)('agrees with the runtime schema on the %s fixture', (name) => {
    const result = fixturePayload(name).result;
    expect(WebviewRunResultSchema.safeParse(result).success).toBe(true);
    expect(RunResultSchema.safeParse(result).success).toBe(true);
  });

  test.each(mutations)('rejects %s, as the runtime schema does', (_name, mutate) => {
    const result = structuredClone(fixturePayload('success').result) as unknown as Record<string, unknown>;
    mutate(result);
    expect(RunResultSchema.safeParse(result).success).toBe(false);
    expect(WebviewRunResultSchema.safeParse(result).success).toBe(false);
  });
});
