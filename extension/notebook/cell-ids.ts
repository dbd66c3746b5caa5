import { CellIdSchema } from '../../runtime/index.js';
import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

// A fresh cell id: 8 lowercase letters/digits (cassette file names), not in `taken`.
export function newCellId(taken: ReadonlySet<string>): string {
  for (;;) {
    const bytes = randomBytes(8);
    let id = '';
    for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
    if (!taken.has(id)) return id;
  }
}

// The id a cell should run under: its own if valid and not used by an earlier cell, else a new one.
export function idForCell(
  own: unknown,
  earlierIds: ReadonlySet<string>,
  allIds: ReadonlySet<string>,
): { id: string; assigned: boolean } {
  if (typeof own === 'string' && CellIdSchema.safeParse(own).success && !earlierIds.has(own))
    return { id: own, assigned: false };
  return { id: newCellId(allIds), assigned: true };
}
