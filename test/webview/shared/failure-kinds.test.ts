import { describe, expect, test } from 'vitest';
import { FAILURE_KINDS } from '../../../runtime/protocol/run-result.js';
import { explainFailure, failureTitle } from '../../../webview/shared/failure-kinds.js';
import { sandboxText, summarizeSandbox } from '../../../webview/shared/sandbox-summary.js';
import { untranslated, type Translate } from '../../../webview/shared/translate.js';
import { truncationOf, truncationText } from '../../../webview/shared/truncation.js';
import { fixturePayload } from '../fixtures/run-results.mjs';
import { callLimitMessage } from '../../../runtime/bindings/dispatcher.js';

describe('failure explanations', () => {
  test.each(FAILURE_KINDS)('%s has a title and a plain-words explanation', (kind) => {
    expect(failureTitle(kind, untranslated).length).toBeGreaterThan(3);
    expect(explainFailure({ kind, message: '' }, untranslated)).toMatch(/^the /);
  });

  // a pseudo-translator: a word for people left out of `t` shows up as text outside the brackets
  const pseudo: Translate = (message, ...args) => `⟦${untranslated(message, ...args)}⟧`;
  test.each(FAILURE_KINDS)('%s is worded wholly through the translator', (kind) => {
    for (const message of [
      '',
      'exceeded 4096 bytes',
      'exceeded 20 log entries',
      'killed by signal SIGKILL',
      'exit code 3',
      'TypeError: x',
      '$.a is undefined',
    ]) {
      expect(explainFailure({ kind, message, location: { line: 2 } }, pseudo, { durationMs: 1500 })).toMatch(/^⟦.*⟧$/s);
      expect(explainFailure({ kind, message }, pseudo, { failingCall: 'tools.a' })).toMatch(/^⟦.*⟧$/s);
    }
    expect(failureTitle(kind, pseudo)).toMatch(/^⟦.+⟧$/);
  });

  // messages exactly as runtime/ writes them (see runtime/typescript/supervise.ts, runtime/output/ledger.ts)
  test.each([
    [
      'a timeout names the deadline from the payload',
      { kind: 'timeout', message: 'x' },
      { timeoutMs: 1500 },
      'the program ran past its 1500 ms deadline and was stopped',
    ],
    [
      'a timeout reads the deadline from the runtime message',
      { kind: 'timeout', message: 'execution deadline reached (1500ms)' },
      {},
      'the program ran past its 1500 ms deadline and was stopped',
    ],
    [
      'a call-limit names the budget from the runtime message',
      { kind: 'call-limit', message: callLimitMessage(1000) },
      {},
      'the program made more than 1\u202f000 binding calls, its budget for one run, and was stopped; raise maxCalls if it needs more',
    ],
    [
      'an exit names the code',
      { kind: 'worker-exit', message: 'Node process exited before completing (code 7)' },
      {},
      'the process running the program exited with code 7 before it finished',
    ],
    [
      'a kill names the signal',
      { kind: 'worker-exit', message: 'Node process exited before completing (signal SIGKILL)' },
      {},
      'the process running the program was killed by SIGKILL before it finished',
    ],
    [
      'an out-of-memory death says so',
      {
        kind: 'worker-exit',
        message: 'Node process exited before completing (signal SIGABRT): JavaScript heap out of memory',
      },
      {},
      'the process running the program ran out of memory and died before it finished',
    ],
    [
      'the output cap is named',
      { kind: 'output-limit', message: 'outer output exceeded 65536 bytes' },
      {},
      'the printed output plus the return value went over the 65536-byte output cap (64 KiB); output was cut and the value dropped',
    ],
    [
      'the log-entry bound is named',
      { kind: 'output-limit', message: 'outer output exceeded 1048576 log entries' },
      {},
      'the program printed more than 1\u202f048\u202f576 lines (entries cost the host memory however short they are); output was cut and the value dropped',
    ],
    [
      'a non-JSON value names the path',
      { kind: 'invalid-output', message: 'program completion must be lossless JSON: $.a is undefined' },
      {},
      'the program returned something that is not plain JSON (undefined, a function, NaN, a cycle…): at $.a it is undefined',
    ],
    [
      'a cancellation says when',
      { kind: 'abort', message: 'the run was cancelled' },
      { durationMs: 212 },
      'the run was cancelled after 212 ms, before the program finished',
    ],
    [
      'an exception names the error and line',
      {
        kind: 'exception',
        message: "TypeError: Cannot read properties of null (reading 'name')\n    at program.ts:3:22",
        location: { line: 3, column: 22 },
      },
      {},
      'the program threw a TypeError at line 3 and did not return',
    ],
    [
      'a Python exception is named from the last traceback line',
      {
        kind: 'exception',
        message:
          'Traceback (most recent call last):\n  File "<program>", line 3, in main\nZeroDivisionError: division by zero',
        location: { line: 3 },
      },
      {},
      'the program threw a ZeroDivisionError at line 3 and did not return',
    ],
    [
      'a syntax error is a parse failure',
      { kind: 'exception', message: 'SyntaxError: Unexpected token', location: { line: 2 } },
      {},
      'the program could not be parsed (SyntaxError at line 2)',
    ],
    [
      'an uncaught binding failure names the call',
      { kind: 'exception', message: 'ToolCallError: no such city: Atlantis' },
      { failingCall: 'tools.lookupCity' },
      'the binding call tools.lookupCity failed and the program did not catch the error',
    ],
  ] as const)('%s', (_name, failure, options, expected) => {
    expect(explainFailure(failure, untranslated, options)).toBe(expected);
  });
});

describe('truncation', () => {
  test('an output-limit failure is shown as truncation at its cap', () => {
    const t = truncationOf(fixturePayload('failure-output-limit').result);
    expect(t).toEqual({ bytes: 4096, source: 'output-limit' });
    expect(truncationText(t!, untranslated)).toBe('output truncated at 4096 bytes');
  });

  test('an output-limit on log entries is shown as truncation at that count', () => {
    const result = {
      ...fixturePayload('failure-output-limit').result,
      error: { kind: 'output-limit' as const, message: 'outer output exceeded 1048576 log entries' },
    };
    const t = truncationOf(result);
    expect(t).toEqual({ bytes: undefined, entries: 1_048_576, source: 'output-limit' });
    expect(truncationText(t!, untranslated)).toBe('output truncated at 1\u202f048\u202f576 log entries');
  });

  test('the Python log marker is recognised', () => {
    const result = {
      ...fixturePayload('success').result,
      logs: ['a', '[ptc-python] log capture truncated at 65536 bytes'],
    };
    expect(truncationOf(result)).toEqual({ bytes: 65536, source: 'log-marker' });
    expect(truncationOf(fixturePayload('success').result)).toBeUndefined();
  });
});

describe('sandbox summary', () => {
  test('lists what a partial or absent sandbox leaves the program', () => {
    const none = fixturePayload('failure-sandbox-unavailable').result.sandbox;
    expect(summarizeSandbox(none, untranslated).missing).toEqual([
      'network is reachable',
      'filesystem is writable',
      'child processes can be started',
    ]);
    expect(sandboxText(fixturePayload('success').result.sandbox, untranslated)).toBe(
      'full via landlock, seccomp, unshare-net',
    );
  });
});
