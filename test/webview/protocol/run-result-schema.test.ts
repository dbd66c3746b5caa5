import { describe, expect, test } from 'vitest';
import { RunResultSchema } from '../../../runtime/protocol/run-result.js';
import { ResultPayloadSchema } from '../../../webview/protocol/result-payload.js';
import { fixtureNames, fixturePayload } from '../fixtures/run-results.mjs';

// The webview validates results with the runtime's own schema (browser-safe); these cases pin what it accepts.
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
    (r) =>
      (r.callSummary = {
        total: 1,
        omitted: 0,
        byBinding: [{ global: 'g', name: 'n', calls: -1, ok: 0, failed: 0 }],
        last: [],
      }),
  ],
  ['a value of -0', (r) => (r.value = -0)],
  ['a cyclic value', (r) => ((r.value = { self: null }), ((r.value as Record<string, unknown>).self = r.value))],
];

describe("the webview's RunResult schema", () => {
  test("is the runtime's own", () => {
    expect(ResultPayloadSchema.shape.result).toBe(RunResultSchema);
  });

  test.each(shallow)('accepts the %s fixture', (name) => {
    expect(RunResultSchema.safeParse(fixturePayload(name).result).success).toBe(true);
  });

  test.each(mutations)('rejects %s', (_name, mutate) => {
    const result = structuredClone(fixturePayload('success').result) as unknown as Record<string, unknown>;
    mutate(result);
    expect(RunResultSchema.safeParse(result).success).toBe(false);
  });
});
