import { describe, expect, test } from 'vitest';
import { fittingPrefix, OutputLedger } from '../../../runtime/output/ledger.js';

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
    expect(ledger.entries).toEqual([{ text: 'abcdefgh', stream: 'stdout' }]);
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
    expect(ledger.entries.length).toBeGreaterThan(0);
  });
});
