import { describe, expect, test } from 'vitest';
import type { CallRecord } from '../../../runtime/protocol/run-result.js';
import { layoutTimeline, niceTicks } from '../../../webview/shared/timeline-layout.js';
import { fixturePayload } from '../fixtures/run-results.mjs';

const call = (id: number, startedAtMs: number, durationMs: number): CallRecord => ({
  id,
  global: 'tools',
  name: 'x',
  args: null,
  ok: true,
  value: null,
  startedAtMs,
  durationMs,
});

describe('layoutTimeline', () => {
  test('sequential calls share one lane; overlapping calls get their own', () => {
    const seq = layoutTimeline([call(1, 0, 10), call(2, 10, 5), call(3, 20, 5)], 30);
    expect(seq.lanes).toBe(1);
    const par = layoutTimeline([call(1, 0, 10), call(2, 1, 10), call(3, 2, 10), call(4, 15, 1)], 30);
    expect(par.lanes).toBe(3);
    expect(par.bars.find((b) => b.call.id === 4)?.lane).toBe(0);
  });

  test('positions bars as fractions of the run, stretching the axis to the last call', () => {
    const layout = layoutTimeline([call(1, 50, 100)], 100);
    expect(layout.spanMs).toBe(150);
    expect(layout.bars[0]).toMatchObject({ start: 50 / 150, width: 100 / 150 });
  });

  test('lays the 300-call fixture out in 10 lanes (Promise.all batches of 10)', () => {
    const result = fixturePayload('timeline-300').result;
    const layout = layoutTimeline(result.calls, result.durationMs);
    expect(layout.bars).toHaveLength(300);
    expect(layout.lanes).toBe(10);
  });

  test('ticks are round numbers covering the span', () => {
    expect(niceTicks(1000).map((t) => t.ms)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(niceTicks(83).map((t) => t.ms)).toEqual([0, 20, 40, 60, 80]);
  });
});
