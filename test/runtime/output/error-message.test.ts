import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { errorMessage } from '../../../runtime/output/error-message.js';

describe('errorMessage', () => {
  test("an Error's message, one of another realm too (instanceof Error misses it)", () => {
    const foreign: unknown = vm.runInNewContext('new TypeError("from elsewhere")');
    expect(foreign instanceof Error).toBe(false);
    expect(errorMessage(foreign)).toBe('from elsewhere');
    expect(errorMessage(new RangeError('here'))).toBe('here');
  });

  test('anything else thrown, as a string', () => {
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage(undefined)).toBe('undefined');
    expect(errorMessage({ message: 7 })).toBe('[object Object]');
  });

  test('a value whose message getter or string conversion throws is named, never rethrown', () => {
    const getter = {
      get message(): string {
        throw new Error('gotcha');
      },
    };
    const unprintable = Object.create(null) as object;
    expect(errorMessage(getter)).toBe('an error that cannot be shown');
    expect(errorMessage(unprintable)).toBe('an error that cannot be shown');
  });
});
