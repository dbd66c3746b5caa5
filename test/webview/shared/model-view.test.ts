import { describe, expect, test } from 'vitest';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';
import type { RunResult } from '../../../runtime/protocol/run-result.js';
import { EMPTY_RUN_TEXT, modelView } from '../../../webview/shared/model-view.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

const base: RunResult = {
  language: 'typescript',
  logs: [],
  calls: [],
  sandbox: { network: 'denied', filesystem: 'read-only', childProcess: 'denied', enforcement: 'full', mechanisms: [] },
  durationMs: 5,
};

describe('modelView', () => {
  test('joins logs and pretty-prints a non-string value after them', () => {
    const view = modelView({ ...base, logs: ['a', 'b'], value: { n: 1, list: [true, null] } });
    expect(view.text).toMatchInlineSnapshot(`
      "a
      b
      {
        "n": 1,
        "list": [
          true,
          null
        ]
      }"
    `);
    expect(view.outcome).toBe('success');
  });

  test('hands a string value to the model raw, without quotes', () => {
    expect(modelView({ ...base, value: 'done "ok"' }).text).toBe('done "ok"');
  });

  test('says so when a run printed and returned nothing', () => {
    expect(modelView(base).text).toBe(EMPTY_RUN_TEXT);
  });

  test('renders a failure as the error line plus the captured output', () => {
    const view = modelView({
      ...base,
      logs: ['step 1', 'step 2'],
      error: { kind: 'timeout', message: 'program exceeded its 1500 ms deadline' },
    });
    expect(view.text).toBe(
      'code run failed (timeout): program exceeded its 1500 ms deadline\n\nCaptured output:\nstep 1\nstep 2',
    );
    expect(view.outcome).toBe('failure');
  });

  test('omits the captured-output block when nothing was printed', () => {
    expect(modelView({ ...base, error: { kind: 'abort', message: 'the run was cancelled' } }).text).toBe(
      'code run failed (abort): the run was cancelled',
    );
  });

  test('counts UTF-8 bytes, not UTF-16 units', () => {
    const view = modelView({ ...base, logs: ['é👩‍💻'] });
    expect(view.bytes).toBe(new TextEncoder().encode('é👩‍💻').length);
  });

  test('pretty-prints a 5 000-deep value where JSON.stringify would overflow', () => {
    const view = modelView(fixturePayload('deep-5000').result);
    expect(view.text.startsWith('{\n  "level": 1,\n  "next": [\n    {\n      "level": 3,')).toBe(true);
    expect(view.bytes).toBeGreaterThan(5000);
    // exactly what JSON.stringify(value, null, 2) gives, where it does not overflow
    let shallow: JsonValue = 'bottom';
    for (let i = 0; i < 900; i += 1) shallow = i % 2 === 0 ? [shallow] : { next: shallow };
    expect(modelView({ ...base, value: shallow }).text).toBe(JSON.stringify(shallow, null, 2));
  });

  test('a 200 000-deep value is indented for its first levels only, so its text stays a few MB', () => {
    const view = modelView(fixturePayload('deep-200000').result);
    expect(view.text.startsWith('[\n  [\n    [')).toBe(true);
    expect(view.text.length).toBeLessThan(5_000_000);
    // the compact rest closes on the line of the deepest indented level, then every indented level closes on its own
    // line
    expect(view.text.includes(`"bottom"${']'.repeat(200_000 - 1_000)}\n${'  '.repeat(999)}]\n`)).toBe(true);
    expect(view.text.endsWith('\n  ]\n]')).toBe(true);
  });
});
