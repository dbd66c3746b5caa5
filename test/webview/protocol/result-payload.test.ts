import { describe, expect, test } from 'vitest';
import { parseResultPayload } from '../../../webview/protocol/result-payload.js';
import { fixtureNames, fixturePayload, fixtureText } from '../fixtures/run-results.mjs';

describe('parseResultPayload', () => {
  test.each(fixtureNames())('accepts the %s fixture as parsed from its output item text', (name) => {
    const parsed = parseResultPayload(JSON.parse(fixtureText(name)));
    expect(parsed.ok).toBe(true);
  });

  test('keeps large JSON values by reference instead of copying them', () => {
    const data = JSON.parse(fixtureText('array-50000')) as { result: { value: unknown } };
    const parsed = parseResultPayload(data);
    expect(parsed.ok && parsed.payload.result.value).toBe(data.result.value);
  });

  test('names the path of a malformed field', () => {
    const data = fixturePayload('success') as unknown as { result: { calls: { durationMs: unknown }[] } };
    data.result.calls[1]!.durationMs = 'slow';
    const parsed = parseResultPayload(data);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(/^result\.calls\[1\]\.durationMs: /);
  });

  test('rejects values that are not JSON, deep inside a value', () => {
    const data = fixturePayload('success') as unknown as { result: { value: { nested: Record<string, unknown> } } };
    data.result.value.nested.bad = Number.NaN;
    const parsed = parseResultPayload(data);
    expect(!parsed.ok && parsed.message).toContain('not a JSON value at .nested.bad: NaN is not a JSON number');
  });

  test('rejects an unknown failure kind and a payload that is not an object', () => {
    const data = fixturePayload('failure-timeout') as unknown as { result: { error: { kind: string } } };
    data.result.error.kind = 'binding';
    expect(parseResultPayload(data).ok).toBe(false);
    expect(parseResultPayload('text').ok).toBe(false);
    expect(parseResultPayload(null).ok).toBe(false);
  });
});
