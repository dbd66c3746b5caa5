import { describe, expect, test } from 'vitest';
import { fittingPrefix, maxLogEntries, MIN_LOG_ENTRIES, OutputLedger } from '../../../runtime/output/ledger.js';

describe('output ledger', () => {
  test('bills the JSON size of the logs array', () => {
    const ledger = new OutputLedger(100);
    expect(ledger.used).toBe(2);
    ledger.addLog('abc', 'stdout');
    expect(ledger.used).toBe(7);
    ledger.addLog('d', 'stderr');
    expect(ledger.used).toBe(7 + 1 + 3);
    expect(ledger.used).toBe(Buffer.byteLength(JSON.stringify(['abc', 'd'])));
  });

  test('keeps the fitting prefix once, then refuses everything', () => {
    const ledger = new OutputLedger(12);
    expect(ledger.addLog('abcdefghijklmnop', 'stdout')).toBe(false);
    expect(ledger.texts).toEqual(['abcdefgh']);
    expect(ledger.entryAt(0)).toEqual({ text: 'abcdefgh', stream: 'stdout' });
    expect(ledger.addLog('more', 'stdout')).toBe(false);
    expect(ledger.used).toBeLessThanOrEqual(12);
  });

  test('prefixes never split a surrogate pair and account for escapes', () => {
    expect(fittingPrefix('😀😀😀', 2 + 4)).toBe('😀');
    expect(fittingPrefix('\n\n\n', 2 + 4)).toBe('\n\n');
    expect(fittingPrefix('abc', 1)).toBe('');
  });

  test('makeRoom trims logs so a diagnostic fits', () => {
    const ledger = new OutputLedger(30);
    ledger.addLog('0123456789', 'stdout');
    ledger.addLog('0123456789', 'stdout');
    ledger.makeRoom(10);
    expect(ledger.used + 10).toBeLessThanOrEqual(30);
    expect(ledger.length).toBeGreaterThan(0);
  });

  test('keeps stderr indices beside the texts, also when makeRoom trims a stderr entry', () => {
    const ledger = new OutputLedger(100);
    ledger.addLog('out', 'stdout');
    ledger.addLog('err', 'stderr');
    ledger.addLog('more out', 'stdout');
    ledger.addLog('0123456789'.repeat(3), 'stderr');
    expect(ledger.texts).toEqual(['out', 'err', 'more out', '0123456789'.repeat(3)]);
    expect(ledger.stderrIndices).toEqual([1, 3]);
    expect([0, 1, 2, 3, 4].map((i) => ledger.entryAt(i)?.stream)).toEqual(['stdout', 'stderr', 'stdout', 'stderr', undefined]);
    expect(ledger.someStderr((t) => t === 'err')).toBe(true);
    expect(ledger.someStderr((t) => t === 'out')).toBe(false);
    // room for 60 more bytes: the last (stderr) entry is cut, and stays a stderr entry
    ledger.makeRoom(60);
    expect(ledger.used + 60).toBeLessThanOrEqual(100);
    expect(ledger.stderrIndices).toEqual(ledger.length === 4 ? [1, 3] : [1]);
    expect(ledger.used).toBe(Buffer.byteLength(JSON.stringify(ledger.texts)));
  });

  test('a host ledger refuses entries past maxEntries (a flood of empty lines), as it does bytes past the cap', () => {
    expect(maxLogEntries(1024)).toBe(MIN_LOG_ENTRIES);
    expect(maxLogEntries(64 * 1024 * 1024)).toBe(1024 * 1024);
    const ledger = new OutputLedger(1_000_000, { maxEntries: 3 });
    expect([1, 2, 3].map(() => ledger.addLog('', 'stdout'))).toEqual([true, true, true]);
    expect(ledger.addLog('', 'stdout')).toBe(false);
    expect(ledger.overflowed).toBe(true);
    expect(ledger.limitMessage()).toBe('outer output exceeded 3 log entries');
    expect(ledger.texts).toEqual(['', '', '']);
    expect(new OutputLedger(1_000_000).maxEntries).toBe(Infinity);
  });
});
