import { describe, expect, it } from 'vitest';
import { cellLimits } from '../../../runtime/session/cell-limits.js';
import { CellMetadataSchema } from '../../../runtime/notebook/schema.js';

describe('per-cell limits', () => {
  it("a cell's own limits win over the notebook-wide ones, which fill the rest", () => {
    const base = { timeoutMs: 120_000, maxOutputBytes: 1024, sandbox: 'best-effort' as const };
    expect(cellLimits(base, { limits: { timeoutMs: 1500 } })).toEqual({
      timeoutMs: 1500,
      maxOutputBytes: 1024,
      sandbox: 'best-effort',
    });
    expect(cellLimits(base, undefined)).toBe(base);
    expect(cellLimits(base, { id: 'a' })).toBe(base);
  });

  it('the format accepts positive whole numbers only and names the bad field', () => {
    expect(CellMetadataSchema.safeParse({ limits: { timeoutMs: 1500, memoryMb: 64 } }).success).toBe(true);
    const bad = CellMetadataSchema.safeParse({ limits: { timeoutMs: -1 } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['limits', 'timeoutMs']);
    expect(CellMetadataSchema.safeParse({ limits: { cpu: 1 } }).success).toBe(false);
  });
});
