import { describe, expect, test } from 'vitest';
import {
  fittingPrefix,
  jsonStringCost,
  maxLogEntries,
  MIN_LOG_ENTRIES,
  OutputLedger,
  TEXT_CHUNK,
} from '../../../runtime/output/ledger.js';

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

  test('long text is measured and cut a slice at a time, exactly as a whole', () => {
    // a surrogate pair straddling the slice boundary, a lone surrogate, escapes and multi-byte characters
    const text = `${'a'.repeat(TEXT_CHUNK - 1)}😀\ud800"\n€${'b'.repeat(3 * TEXT_CHUNK)}`;
    expect(jsonStringCost(text)).toBe(Buffer.byteLength(JSON.stringify(text)));
    for (const budget of [
      TEXT_CHUNK,
      TEXT_CHUNK + 1,
      TEXT_CHUNK + 2,
      TEXT_CHUNK + 5,
      TEXT_CHUNK + 12,
      2 * TEXT_CHUNK,
    ]) {
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
    expect(ledger.texts[0]).toBe('x'.repeat(996));
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
    expect(ledger.texts).toEqual(['a', 'e', 'x😀yz', 'next']);
    expect(ledger.used).toBe(Buffer.byteLength(JSON.stringify(['a', 'e', 'x😀yz', 'next'])));
    expect(ledger.openStream).toBeUndefined();
  });

  test('a continuation past the cap keeps its fitting prefix in the same entry', () => {
    const ledger = new OutputLedger(12);
    expect(ledger.admit('abc', 'stdout', true)).toEqual({ text: 'abc', fitted: true });
    expect(ledger.admit('defghijk', 'stdout', false)).toEqual({ text: 'defgh', fitted: false });
    expect(ledger.texts).toEqual(['abcdefgh']);
    expect(ledger.entryAt(0)).toEqual({ text: 'abcdefgh', stream: 'stdout' });
    expect(ledger.used).toBe(Buffer.byteLength(JSON.stringify(['abcdefgh'])));
  });

  test('keeps stderr indices beside the texts, also when makeRoom trims a stderr entry', () => {
    const ledger = new OutputLedger(100);
    ledger.addLog('out', 'stdout');
    ledger.addLog('err', 'stderr');
    ledger.addLog('more out', 'stdout');
    ledger.addLog('0123456789'.repeat(3), 'stderr');
    expect(ledger.texts).toEqual(['out', 'err', 'more out', '0123456789'.repeat(3)]);
    expect(ledger.stderrIndices).toEqual([1, 3]);
    expect([0, 1, 2, 3, 4].map((i) => ledger.entryAt(i)?.stream)).toEqual([
      'stdout',
      'stderr',
      'stdout',
      'stderr',
      undefined,
    ]);
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
