import fs from 'node:fs/promises';
import path from 'node:path';
import { parseNotebook } from '../notebook/parse.js';
import { cassetteName, cellCassettePath } from './plan.js';
import type { NotebookFile } from '../notebook/schema.js';

// A cell that reads or writes a cassette of its notebook's .ptc/cassettes/<notebook>/: an expectation cell (ptc test
// replays it; --update with --mode live and Accept as Expected write it) or a cell whose own mode is record or replay.
export interface CassetteOwner {
  notebook: string;
  // position in the notebook, markdown cells included (0-based)
  position: number;
  name: string;
  // named with metadata.cassette: a cassette shared on purpose (a record cell and the cell that replays it)
  explicit: boolean;
}

export function cassetteOwners(file: string, notebook: NotebookFile): CassetteOwner[] {
  const owners: CassetteOwner[] = [];
  notebook.cells.forEach((cell, position) => {
    if (cell.kind !== 'code') return;
    const meta = cell.metadata;
    if (meta?.expect === undefined && meta?.mode !== 'record' && meta?.mode !== 'replay') return;
    owners.push({
      notebook: file,
      position,
      name: cassetteName(meta, position),
      explicit: meta.cassette !== undefined,
    });
  });
  return owners;
}

// One line per cassette file that cells of one notebook would share without saying so: recording one of them would
// overwrite what another replays (an id twice in a notebook, an id equal to another cell's positional `cell-N`).
// Notebooks never share one: each has its own folder of cassettes.
export function describeCollisions(owners: readonly CassetteOwner[], cwd: string): string[] {
  const byFile = new Map<string, CassetteOwner[]>();
  for (const owner of owners) {
    const key = cellCassettePath({
      cell: { cassette: owner.name },
      cellIndex: owner.position,
      notebookDir: path.dirname(owner.notebook),
      notebookFile: owner.notebook,
    });
    byFile.set(key, [...(byFile.get(key) ?? []), owner]);
  }
  const lines: string[] = [];
  for (const [file, sharing] of byFile) {
    if (sharing.length < 2 || sharing.every((o) => o.explicit)) continue;
    const cells = sharing
      .map((o) => `${path.relative(cwd, o.notebook) || o.notebook} cell ${o.position + 1}`)
      .join(', ');
    lines.push(
      `${path.relative(cwd, file) || file} would be the cassette of ${cells}: recording one overwrites what the others replay; give each cell an id of its own (metadata.id), or name a cassette shared on purpose with metadata.cassette`,
    );
  }
  return lines;
}

// The collisions within each of these notebooks; a notebook that cannot be read or parsed is left to the command
// that runs it, which names its problem.
export async function cassetteCollisions(notebooks: readonly string[], cwd: string): Promise<string[]> {
  const lines: string[] = [];
  for (const notebook of [...new Set(notebooks.map((n) => path.resolve(cwd, n)))].sort()) {
    const text = await fs.readFile(notebook, 'utf8').catch(() => undefined);
    const parsed = text === undefined ? undefined : parseNotebook(text);
    if (parsed?.ok === true) lines.push(...describeCollisions(cassetteOwners(notebook, parsed.notebook), cwd));
  }
  return lines;
}
