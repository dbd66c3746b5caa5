import { describe, expect, test } from 'vitest';
import { formatResultText } from '../../../webview/shared/format-result-text.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

describe('formatResultText', () => {
  test('summarizes a successful run: status, output with stderr marked, value, calls, footer', () => {
    expect(formatResultText(fixturePayload('success').result).split('\n').slice(0, 8)).toEqual([
      '✓ succeeded in 81 ms',
      '',
      '--- printed output (2 entries) ---',
      'found 3 hits',
      '[stderr] slow page: https://github.com/microsoft/vscode-extension-samples',
      '',
      '--- return value ---',
      '{',
    ]);
    expect(formatResultText(fixturePayload('success').result)).toContain('#2 tools.fetch at 30 ms for 25 ms: ok');
  });

  test('explains a failure and shows the truncation explicitly', () => {
    const text = formatResultText(fixturePayload('failure-output-limit').result);
    expect(
      text.startsWith(
        '✗ output-limit: the printed output plus the return value went over the 4096-byte output cap (4.0 KiB)',
      ),
    ).toBe(true);
    expect(text).toContain('[output truncated at 4096 bytes]');
    expect(formatResultText(fixturePayload('failure-timeout').result, { timeoutMs: 1500 })).toContain(
      'ran past its 1500 ms deadline',
    );
  });

  test('caps the call list and still handles a 5 000-deep value', () => {
    const text = formatResultText(fixturePayload('timeline-300').result);
    expect(text).toContain('… 250 more calls');
    expect(text).toContain('replay: 298 matched, 2 diverged, 2 unused');
    expect(() => formatResultText(fixturePayload('deep-5000').result)).not.toThrow();
    expect(formatResultText(fixturePayload('hostile').result)).toContain('before\u0000after');
    expect(formatResultText(fixturePayload('deep-200000').result).length).toBeLessThan(200_000);
  });

  test('a summarized run counts every call, lists the first and last ones, and each binding', () => {
    const text = formatResultText(fixturePayload('calls-summarized').result);
    expect(text).toContain('--- binding calls (5000) ---');
    expect(text).toContain('… 4930 more calls\n#4981 tools.echo');
    expect(text).toContain('#5000 tools.fail at 1.00 s for 0.1 ms: failed: no');
    expect(text).toContain(
      '[showing the first 1\u202f000 and the last 20 of 5\u202f000 calls; the 3\u202f980 in between are counted per binding]',
    );
    expect(text).toContain('tools.echo: 4500 calls, 4500 ok, 0 failed\ntools.fail: 500 calls, 0 ok, 500 failed');
  });
});
