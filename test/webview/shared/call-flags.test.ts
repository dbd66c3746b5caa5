import { describe, expect, test } from 'vitest';
import { callLabel, divergedCallIds, failingCall } from '../../../webview/shared/call-flags.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

describe('call flags', () => {
  test('marks the calls a replay could not match', () => {
    expect([...divergedCallIds(fixturePayload('timeline-300').result)].sort((a, b) => a - b)).toEqual([142, 143]);
    expect(divergedCallIds(fixturePayload('diff-replay').result)).toEqual(new Set([3]));
    expect(divergedCallIds(fixturePayload('success').result).size).toBe(0);
  });

  test('matches divergences from the replay report by canonical arguments when the message does not say so', () => {
    const result = structuredClone(fixturePayload('success').result);
    result.replay = {
      matched: 3,
      diverged: [{ global: 'tools', name: 'search', args: { limit: 3, q: 'vscode notebooks' } }],
      unused: 0,
    };
    expect(divergedCallIds(result)).toEqual(new Set([1]));
  });

  test('finds the binding call behind an exception, and none for other failures', () => {
    expect(failingCall(fixturePayload('binding-failure').result)?.id).toBe(2);
    expect(failingCall(fixturePayload('failure-timeout').result)).toBeUndefined();
    expect(failingCall(fixturePayload('failure-exception').result)).toBeUndefined();
  });

  test('labels exotic binding names as bracketed strings', () => {
    expect(callLabel({ global: 'tools', name: 'search' })).toBe('tools.search');
    expect(callLabel({ global: 'tools', name: 'my-tool' })).toBe('tools["my-tool"]');
  });
});
