import { describe, expect, test } from 'vitest';
import { FAILURE_KINDS } from '../../../runtime/protocol/run-result.js';
import { explainFailure, FAILURE_TITLES } from '../../../webview/shared/failure-kinds.js';
import { sandboxText, summarizeSandbox } from '../../../webview/shared/sandbox-summary.js';
import { truncationOf, truncationText } from '../../../webview/shared/truncation.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

describe('failure explanations', () => {
  test.each(FAILURE_KINDS)('%s has a title and a plain-words explanation', (kind) => {
    expect(FAILURE_TITLES[kind].length).toBeGreaterThan(3);
    expect(explainFailure(kind)).toMatch(/^the /);
  });

  test('a timeout names the deadline when it is known', () => {
    expect(explainFailure('timeout', { timeoutMs: 1500 })).toBe('the program ran past its 1500 ms deadline and was stopped');
  });
});

describe('truncation', () => {
  test('an output-limit failure is shown as truncation at its cap', () => {
    const t = truncationOf(fixturePayload('failure-output-limit').result);
    expect(t).toEqual({ bytes: 4096, source: 'output-limit' });
    expect(truncationText(t!)).toBe('output truncated at 4096 bytes');
  });

  test('the Python log marker is recognised', () => {
    const result = { ...fixturePayload('success').result, logs: ['a', '[ptc-python] log capture truncated at 65536 bytes'] };
    expect(truncationOf(result)).toEqual({ bytes: 65536, source: 'log-marker' });
    expect(truncationOf(fixturePayload('success').result)).toBeUndefined();
  });
});

describe('sandbox summary', () => {
  test('lists what a partial or absent sandbox leaves the program', () => {
    const none = fixturePayload('failure-sandbox-unavailable').result.sandbox;
    expect(summarizeSandbox(none).missing).toEqual(['network is reachable', 'filesystem is writable', 'child processes can be started']);
    expect(sandboxText(fixturePayload('success').result.sandbox)).toBe('full via landlock, seccomp, unshare-net');
  });
});
