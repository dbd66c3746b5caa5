import { describe, expect, test } from 'vitest';
import { jsonByteLength } from '../../../runtime/json/json-size.js';
import { boundSavedOutputs, CELL_OUTPUT_BUDGET_BYTES, fitResult } from '../../../runtime/notebook/output-budget.js';
import { parseNotebook } from '../../../runtime/notebook/parse.js';
import type { NotebookFile, SavedOutput } from '../../../runtime/notebook/schema.js';
import { serializeNotebook } from '../../../runtime/notebook/serialize.js';
import type { JsonValue } from '../../../runtime/protocol/json-value.js';
import { KEPT_CALLS, LAST_CALLS, type CallRecord, type RunResult } from '../../../runtime/protocol/run-result.js';

const SANDBOX: RunResult['sandbox'] = {
  network: 'denied',
  filesystem: 'denied',
  childProcess: 'denied',
  enforcement: 'full',
  mechanisms: ['bubblewrap'],
};

function call(id: number, payloadChars = 10): CallRecord {
  return {
    id,
    global: 'tools',
    name: id % 2 === 0 ? 'search' : 'fetch',
    args: { q: 'x'.repeat(payloadChars) },
    ok: true,
    value: 'y'.repeat(payloadChars),
    startedAtMs: id,
    durationMs: 0.5,
  };
}

function result(overrides: Partial<RunResult> = {}): RunResult {
  return {
    language: 'typescript',
    logs: [],
    calls: [],
    sandbox: SANDBOX,
    durationMs: 10_000,
    mode: 'mock',
    ...overrides,
  };
}

// A runaway loop's result as the runtime returns it: the first KEPT_CALLS calls, the last LAST_CALLS, every call
// counted.
function runaway(total: number, payloadChars: number): RunResult {
  const calls = Array.from({ length: KEPT_CALLS }, (_, i) => call(i + 1, payloadChars));
  const last = Array.from({ length: LAST_CALLS }, (_, i) => call(total - LAST_CALLS + i + 1, payloadChars));
  return result({
    calls,
    callSummary: {
      total,
      omitted: total - KEPT_CALLS - LAST_CALLS,
      byBinding: [
        { global: 'tools', name: 'fetch', calls: total / 2, ok: total / 2, failed: 0 },
        { global: 'tools', name: 'search', calls: total / 2, ok: total / 2, failed: 0 },
      ],
      last,
    },
    error: { kind: 'abort', message: 'cancelled from the notebook' },
  });
}

const bytes = (value: unknown): number => jsonByteLength(value as JsonValue);

describe('fitResult (the per-cell output budget)', () => {
  test('a result within the budget is returned as it is, with no note', () => {
    const small = result({ logs: ['hi'], value: { a: 1 }, calls: [call(1)] });
    const fitted = fitResult(small);
    expect(fitted.result).toBe(small);
    expect(fitted.note).toBeUndefined();
  });

  test('a runaway loop of big calls keeps every count but only the first call records, and says so', () => {
    const big = runaway(87_556, 2_000);
    expect(bytes(big)).toBeGreaterThan(CELL_OUTPUT_BUDGET_BYTES);
    const { result: fitted, note } = fitResult(big);
    expect(bytes(fitted)).toBeLessThanOrEqual(CELL_OUTPUT_BUDGET_BYTES);
    expect(fitted.calls.map((c) => c.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(fitted.callSummary).toEqual({
      total: 87_556,
      omitted: 87_456,
      byBinding: big.callSummary?.byBinding,
      last: [],
    });
    // the facts of the run survive whole
    expect(fitted.error).toEqual(big.error);
    expect(fitted.durationMs).toBe(big.durationMs);
    expect(note).toMatch(
      /^This result \(\d+\.\d MiB\) is over the 1\.0 MiB per-cell output budget; left out: 920 call record\(s\) \(every call is still counted per binding\)\.$/,
    );
  });

  test('calls without a summary get one, counted per binding, when records are dropped', () => {
    const calls = Array.from({ length: 400 }, (_, i) => ({
      ...call(i + 1, 4_000),
      ok: i % 4 !== 0,
      ...(i % 4 === 0 ? { message: 'boom' } : {}),
    }));
    const { result: fitted } = fitResult(result({ calls }));
    expect(fitted.callSummary?.total).toBe(400);
    expect(fitted.callSummary?.byBinding).toEqual([
      { global: 'tools', name: 'fetch', calls: 200, ok: 100, failed: 100 },
      { global: 'tools', name: 'search', calls: 200, ok: 200, failed: 0 },
    ]);
    expect(fitted.calls.length + (fitted.callSummary?.omitted ?? 0)).toBe(400);
  });

  test('megabytes of printed lines keep their beginning; stderr marks stay on the lines kept', () => {
    const logs = Array.from({ length: 50_000 }, (_, i) => `line ${i} ${'z'.repeat(60)}`);
    const stderrLogs = [0, 3, 49_999];
    const { result: fitted, note } = fitResult(result({ logs, stderrLogs, value: 'done' }));
    expect(bytes(fitted)).toBeLessThanOrEqual(CELL_OUTPUT_BUDGET_BYTES);
    expect(fitted.logs.length).toBeGreaterThan(1_000);
    expect(fitted.logs).toEqual(logs.slice(0, fitted.logs.length));
    expect(fitted.stderrLogs).toEqual([0, 3]);
    expect(fitted.value).toBe('done');
    expect(note).toContain(`${50_000 - fitted.logs.length} of 50000 printed line(s)`);
  });

  test('a return value larger than the budget is dropped, named with its size; the outcome stays', () => {
    const { result: fitted, note } = fitResult(result({ value: 'v'.repeat(3 * 1024 * 1024), logs: ['before'] }));
    expect(fitted.value).toBeUndefined();
    expect(fitted.logs).toEqual(['before']);
    expect(fitted.error).toBeUndefined();
    expect(note).toContain('the return value (3.0 MiB)');
  });
});

describe('a notebook within the budget, whoever wrote it', () => {
  const huge: NotebookFile = {
    version: 1,
    metadata: { bindings: 'tools.bindings.mjs' },
    cells: [
      {
        kind: 'code',
        language: 'typescript',
        source: 'while (true) await tools.search({ q: "x" });',
        metadata: { id: 'loop' },
        outputs: [
          {
            kind: 'result',
            result: {
              ...runaway(87_556, 1),
              calls: Array.from({ length: 87_556 }, (_, i) => call(i + 1, 200)),
              callSummary: undefined,
            } as RunResult,
          },
        ],
      },
      {
        kind: 'code',
        language: 'python',
        source: 'return 1',
        outputs: [{ kind: 'result', result: result({ language: 'python', value: 1 }) }],
      },
    ],
  };

  test('saving a runaway cell writes it within the budget, with its note; small cells are untouched', () => {
    const text = serializeNotebook(huge);
    const parsed = parseNotebook(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const [loop, small] = parsed.notebook.cells;
    const saved = loop?.kind === 'code' ? (loop.outputs?.[0] as Extract<SavedOutput, { kind: 'result' }>) : undefined;
    expect(bytes(saved)).toBeLessThanOrEqual(CELL_OUTPUT_BUDGET_BYTES + 1024);
    expect(saved?.result.callSummary?.total).toBe(87_556);
    expect(saved?.note).toContain('per-cell output budget');
    expect(loop?.source).toBe(huge.cells[0]?.source);
    expect(small).toEqual(huge.cells[1]);
    // the budget is about the file: the pretty-printed notebook, not a compact encoding
    expect(Buffer.byteLength(text)).toBeLessThan(CELL_OUTPUT_BUDGET_BYTES + 64 * 1024);
  });

  test('outputs over the budget in a file from elsewhere are replaced by a note when opened, never the source', () => {
    const outputs = huge.cells[0]?.kind === 'code' ? (huge.cells[0].outputs ?? []) : [];
    const bounded = boundSavedOutputs(outputs);
    expect(bounded).toHaveLength(1);
    expect(bounded[0]?.kind).toBe('error');
    expect(bounded[0]?.kind === 'error' ? bounded[0].message : '').toMatch(
      /^The saved result \(\d+\.\d MiB\) was over the 1\.0 MiB per-cell output budget and was not loaded\. Run the cell again to see its result\.$/,
    );
    // outputs within the budget stay as they are (the same objects)
    const small = huge.cells[1]?.kind === 'code' ? (huge.cells[1].outputs ?? []) : [];
    expect(boundSavedOutputs(small)[0]).toBe(small[0]);
  });
});
