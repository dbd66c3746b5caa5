import { describe, expect, test } from 'vitest';
import { fittingPrefix, jsonStringCost, OutputLedger, TEXT_CHUNK } from '../../../runtime/output/ledger.js';

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

  test('long text is measured and cut a slice at a time, exactly as a whole', () => {
    // a surrogate pair straddling the slice boundary, a lone surrogate, escapes and multi-byte characters
    const text = `${'a'.repeat(TEXT_CHUNK - 1)}😀\ud800"\n€${'b'.repeat(3 * TEXT_CHUNK)}`;
    expect(jsonStringCost(text)).toBe(Buffer.byteLength(JSON.stringify(text)));
    for (const budget of [TEXT_CHUNK, TEXT_CHUNK + 1, TEXT_CHUNK + 2, TEXT_CHUNK + 5, TEXT_CHUNK + 12, 2 * TEXT_CHUNK]) {
      const prefix = fittingPrefix(text, budget);
      expect(text.startsWith(prefix)).toBe(true);
      expect(jsonStringCost(prefix)).toBeLessThanOrEqual(budget);
      const next = text.slice(0, prefix.length + (text.codePointAt(prefix.length)! > 0xffff ? 2 : 1));
      expect(jsonStringCost(next)).toBeGreaterThan(budget);
    }
  });

  test('a line far longer than the room is cut without being measured whole', () => {
    const ledger = new OutputLedger(1_000);
    expect(ledger.addLog('x'.repeat(50_000_000), 'stdout')).toBe(false);
    expect(ledger.entries[0]?.text).toBe('x'.repeat(996));
    expect(ledger.used).toBe(1_000);
  });

  test('an open entry is continued by the next text of its stream and billed as one string', () => {
    const ledger = new OutputLedger(1_000);
    ledger.admit('a', 'stdout', true);
    ledger.admit('e', 'stderr', false);
    ledger.admit('x\ud83d', 'stdout', true);
    ledger.admit('\ude00y', 'stdout', true);
    ledger.admit('z', 'stdout', false);
    ledger.admit('next', 'stdout', false);
    expect(ledger.entries.map((e) => e.text)).toEqual(['a', 'e', 'x😀yz', 'next']);
    expect(ledger.used).toBe(Buffer.byteLength(JSON.stringify(['a', 'e', 'x😀yz', 'next'])));
    expect(ledger.openStream).toBeUndefined();
  });

  test('a continuation past the cap keeps its fitting prefix in the same entry', () => {
    const ledger = new OutputLedger(12);
    expect(ledger.admit('abc', 'stdout', true)).toEqual({ text: 'abc', fitted: true });
    expect(ledger.admit('defghijk', 'stdout', false)).toEqual({ text: 'defgh', fitted: false });
    expect(ledger.entries).toEqual([{ text: 'abcdefgh', stream: 'stdout' }]);
    expect(ledger.used).toBe(Buffer.byteLength(JSON.stringify(['abcdefgh'])));
  });
});
