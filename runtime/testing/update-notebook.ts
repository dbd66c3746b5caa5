import { readTextFile } from '../files/read-text.js';
import { parseNotebook } from '../notebook/parse.js';
import { RawSliceMemory } from '../notebook/raw-memory.js';
import { serializeNotebook } from '../notebook/serialize.js';
import type { Expectation } from '../notebook/expectation.js';
import { writeFileAtomically } from '../files/atomic-write.js';
import { errorMessage } from '../output/error-message.js';

export type NotebookWrite = { ok: true } | { ok: false; message: string };

// Rewrites the expectations of some cells (by index) in a notebook file, keeping everything else as it was
// (unknown metadata verbatim, outputs); atomically, so an interrupted update never leaves half a notebook.
export async function writeExpectations(
  file: string,
  updates: ReadonlyMap<number, Expectation>,
): Promise<NotebookWrite> {
  const read = await readTextFile(file);
  if (!read.ok) return { ok: false, message: `cannot read ${file}: ${read.reason}` };
  const memory = new RawSliceMemory();
  const parsed = parseNotebook(read.text, memory);
  if (!parsed.ok)
    return { ok: false, message: `${file} changed while the tests ran and is no longer a readable notebook` };
  const { notebook } = parsed;
  for (const [index, expect] of updates) {
    const cell = notebook.cells[index];
    if (cell === undefined || cell.kind !== 'code')
      return { ok: false, message: `${file} changed while the tests ran (cell ${index + 1} is gone)` };
    cell.metadata = { ...cell.metadata, expect };
  }
  let out: string;
  try {
    out = serializeNotebook(notebook, { memory });
  } catch (error) {
    return { ok: false, message: errorMessage(error) };
  }
  try {
    await writeFileAtomically(file, out);
  } catch (error) {
    return { ok: false, message: `cannot write ${file}: ${errorMessage(error)}` };
  }
  return { ok: true };
}
