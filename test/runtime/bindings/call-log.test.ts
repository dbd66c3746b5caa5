import { describe, expect, test } from 'vitest';
import { CallLog } from '../../../runtime/bindings/call-log.js';
import { KEPT_CALLS, LAST_CALLS, type CallRecord } from '../../../runtime/protocol/run-result.js';

const record = (id: number, name = 'echo'): CallRecord => ({
  id,
  global: 'tools',
  name,
  args: { id },
  ok: false,
  startedAtMs: id,
  durationMs: 0,
});

describe('CallLog', () => {
  test('keeps every call while there are at most KEPT_CALLS, with no summary', () => {
    const log = new CallLog();
    for (let id = 1; id <= KEPT_CALLS; id++) log.add(record(id));
    expect(log.kept).toHaveLength(KEPT_CALLS);
    expect(log.summary()).toBeUndefined();
  });

  test('past KEPT_CALLS keeps the first ones and the last LAST_CALLS in issue order, and counts every call', () => {
    const log = new CallLog();
    const total = KEPT_CALLS + 3 * LAST_CALLS + 7;
    for (let id = 1; id <= total; id++) {
      const r = record(id, id % 3 === 0 ? 'fail' : 'echo');
      log.add(r);
      // every call but the last two finishes: fails fail, the rest answer
      if (id <= total - 2) {
        if (r.name === 'fail') r.message = 'no';
        else r.ok = true;
        log.finished(r);
      }
    }
    expect(log.kept.map((r) => r.id)).toEqual(Array.from({ length: KEPT_CALLS }, (_, i) => i + 1));
    const summary = log.summary();
    expect(summary?.total).toBe(total);
    expect(summary?.last.map((r) => r.id)).toEqual(
      Array.from({ length: LAST_CALLS }, (_, i) => total - LAST_CALLS + 1 + i),
    );
    expect(summary?.omitted).toBe(total - KEPT_CALLS - LAST_CALLS);
    // the two unfinished calls (ids total-1 and total) are both echo calls: counted as calls, neither ok nor failed
    const fails = Math.floor(total / 3);
    expect([total - 1, total].every((id) => id % 3 !== 0)).toBe(true);
    expect(summary?.byBinding).toEqual([
      { global: 'tools', name: 'echo', calls: total - fails, ok: total - fails - 2, failed: 0 },
      { global: 'tools', name: 'fail', calls: fails, ok: 0, failed: fails },
    ]);
  });

  test('counts by global and name without mixing bindings whose names look alike', () => {
    const log = new CallLog();
    for (let id = 1; id <= KEPT_CALLS + 1; id++)
      log.add({ ...record(id), global: id % 2 === 0 ? 'a' : 'a\u0000b', name: id % 2 === 0 ? 'b\u0000c' : 'c' });
    expect(log.summary()?.byBinding.map((c) => c.calls)).toEqual([501, 500]);
  });
});
