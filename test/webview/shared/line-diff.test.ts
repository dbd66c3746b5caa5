import { describe, expect, test } from 'vitest';
import { diffLines, firstDifference } from '../../../webview/shared/line-diff.js';

const ops = (left: string[], right: string[]): string =>
  diffLines(left, right)
    .map((r) => r.op[0])
    .join('');

describe('diffLines', () => {
  test('identical input is all same rows', () => {
    expect(ops(['a', 'b'], ['a', 'b'])).toBe('ss');
    expect(firstDifference(diffLines(['a'], ['a']))).toBe(-1);
  });

  test('an inserted line does not misalign the lines after it', () => {
    const rows = diffLines(['a', 'b', 'c'], ['a', 'x', 'b', 'c']);
    expect(rows.map((r) => r.op)).toEqual(['same', 'added', 'same', 'same']);
    expect(firstDifference(rows)).toBe(1);
  });

  test('a replaced line pairs up as one changed row with both line numbers', () => {
    const rows = diffLines(['a', 'b', 'c'], ['a', 'B', 'c']);
    expect(rows[1]).toEqual({ op: 'changed', left: 'b', right: 'B', leftNo: 2, rightNo: 2 });
  });

  test('removals at the end are removed rows', () => {
    expect(ops(['a', 'b', 'c'], ['a'])).toBe('srr');
  });

  test('falls back to pairing by position when the inputs share nothing and are huge', () => {
    const left = Array.from({ length: 3000 }, (_, i) => `l${i}`);
    const right = Array.from({ length: 3000 }, (_, i) => `r${i}`);
    const rows = diffLines(left, right);
    expect(rows).toHaveLength(3000);
    expect(rows.every((r) => r.op === 'changed')).toBe(true);
  });
});
