import { describe, expect, test } from 'vitest';
import { parseResultPayload } from '../../../webview/protocol/result-payload.js';
import { cassetteRun, PENDING_MESSAGE, type CassetteCallLike } from '../../../webview/shared/cassette-run.js';

describe('cassetteRun', () => {
  const calls: CassetteCallLike[] = [
    { global: 'tools', name: 'search', args: { q: 'a' }, ok: true, value: [1, 2], durationMs: 4 },
    {
      global: 'tools',
      name: 'fetch',
      args: { url: 'x' },
      ok: false,
      message: 'HTTP 404',
      durationMs: 2.5,
      schemaViolation: 'value: expected object',
    },
    { global: 'db', name: 'get', args: {}, ok: false, pending: true, durationMs: 0 },
  ];

  test('lays recorded calls end to end, keeps answers and failures, marks pending calls, and passes the payload schema', () => {
    const run = cassetteRun({
      id: 'c1',
      label: 'tape.json',
      calls,
      language: 'python',
      createdAt: '2026-12-03T10:00:00Z',
    });
    expect(run).toMatchObject({ id: 'c1', label: 'tape.json', source: 'cassette', createdAt: '2026-12-03T10:00:00Z' });
    const result = run.payload.result;
    expect(result.calls.map((c) => [c.id, c.startedAtMs, c.ok, c.value ?? c.message])).toEqual([
      [1, 0, true, [1, 2]],
      [2, 4, false, 'HTTP 404'],
      [3, 6.5, false, PENDING_MESSAGE],
    ]);
    expect(result.calls[1]?.schemaViolation).toBe('value: expected object');
    expect(result).toMatchObject({ language: 'python', logs: [], durationMs: 6.5 });
    expect(result.error).toBeUndefined();
    expect(parseResultPayload(run.payload).ok).toBe(true);
  });

  test('an empty cassette is an empty run', () => {
    expect(cassetteRun({ id: 'c2', label: 'empty', calls: [], language: 'typescript' }).payload.result).toMatchObject({
      calls: [],
      durationMs: 0,
    });
  });
});
