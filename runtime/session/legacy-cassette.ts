import fs from 'node:fs/promises';
import path from 'node:path';
import { pathExists } from '../files/exists.js';
import { parseNotebook } from '../notebook/parse.js';
import { NOTEBOOK_FILE_EXTENSION } from '../notebook/schema.js';
import { cassetteName } from '../notebook/cassette-name.js';
import { cellCassettePath } from './plan.js';
import type { LegacyCassette } from './session-types.js';

// Cassettes moved from `.ptc/cassettes/<cell>.json` (one folder per notebook folder, where two notebooks' cells of
// one id overwrote each other) to `.ptc/cassettes/<notebook>/<cell>.json`. Old recordings are never lost: a cell with
// no cassette of its own reads the old file, and its next recording retires it once no other notebook reads it.

// The file a replay of this cell reads: its own cassette, else (none yet) the one the old layout left, else its own
// (whose absence the replay reports).
export async function cassetteToRead(plan: { cassettePath: string; legacy?: LegacyCassette }): Promise<string> {
  if (plan.legacy === undefined || (await pathExists(plan.cassettePath))) return plan.cassettePath;
  return (await pathExists(plan.legacy.path)) ? plan.legacy.path : plan.cassettePath;
}

// After the cell recorded its own cassette: the old file goes unless a cell of another notebook of the folder could
// still read it (one of that name with no cassette of its own yet), or a notebook there cannot be read to tell.
export async function retireLegacyCassette(legacy: LegacyCassette | undefined): Promise<void> {
  if (legacy?.notebookDir === undefined || !(await pathExists(legacy.path))) return;
  const { notebookDir } = legacy;
  const name = path.basename(legacy.path, '.json');
  const own = path.basename(legacy.notebookFile);
  let siblings: string[];
  try {
    siblings = await fs.readdir(notebookDir);
  } catch {
    return;
  }
  for (const sibling of siblings) {
    if (!sibling.endsWith(NOTEBOOK_FILE_EXTENSION) || sibling === own) continue;
    const text = await fs.readFile(path.join(notebookDir, sibling), 'utf8').catch(() => undefined);
    const parsed = text === undefined ? undefined : parseNotebook(text);
    if (parsed?.ok !== true) return;
    for (const [cellIndex, cell] of parsed.notebook.cells.entries()) {
      if (cell.kind !== 'code' || cassetteName(cell.metadata, cellIndex) !== name) continue;
      const theirs = cellCassettePath({ cell: cell.metadata, cellIndex, notebookDir, notebookFile: sibling });
      if (!(await pathExists(theirs))) return;
    }
  }
  await fs.rm(legacy.path, { force: true });
}
