import { describe, expect, test } from 'vitest';
import { cassetteRun } from '../../../extension/inspector/cassette-run.js';
import { InspectorRunSchema } from '../../../webview/protocol/index.js';

describe('cassetteRun', () => {
  test('shows a cassette\'s calls end to end on the time axis, as a valid inspector run', () => {
    const run = cassetteRun({
      file: '/nb/.ptc/cassettes/lookup.json',
      language: 'python',
      program: 'return 1',
      cassette: {
        version: 1,
        calls: [
          { global: 'tools', name: 'a', args: { q: 1 }, ok: true, value: [1], durationMs: 5 },
          { global: 'tools', name: 'b', args: {}, ok: false, message: 'boom', durationMs: 2 },
          { global: 'tools', name: 'c', args: {}, ok: false, pending: true, durationMs: 0 },
        ],
      },
    });
    expect(InspectorRunSchema.safeParse({ ...run, id: 'run-1' }).success).toBe(true);
    expect(run).toMatchObject({ label: 'cassette lookup · 3 call(s)', source: 'cassette', payload: { cellId: 'lookup', language: 'python', program: 'return 1' } });
    const { result } = run.payload;
    expect(result.calls.map((c) => [c.name, c.startedAtMs, c.ok, c.value ?? c.message])).toEqual([
      ['a', 0, true, [1]],
      ['b', 5, false, 'boom'],
      ['c', 7, false, 'the recorded run never saw this call answered'],
    ]);
    expect(result).toMatchObject({ durationMs: 7, mode: 'replay', logs: [] });
  });
});
