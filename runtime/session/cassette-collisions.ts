import fs from 'node:fs/promises';
import path from 'node:path';
import { parseNotebook } from '../notebook/parse.js';
import { CASSETTE_DIR, cassetteName } from './plan.js';
import { NOTEBOOK_FILE_EXTENSION, type NotebookFile } from '../notebook/schema.js';

// A cell that reads or writes a cassette of its folder's .ptc/cassettes/: an expectation cell (ptc test replays it;
// --update, --live and Accept as Expected write it) or a cell whose own mode is record or replay.
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

// One line per cassette file that cells of one folder would share without saying so: recording one of them would
// overwrite what another replays (duplicate cell ids in a notebook, or the same id in two notebooks of a folder).
export function describeCollisions(owners: readonly CassetteOwner[], cwd: string): string[] {
  const byFile = new Map<string, CassetteOwner[]>();
  for (const owner of owners) {
    const key = path.join(path.dirname(owner.notebook), CASSETTE_DIR, `${owner.name}.json`);
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

// The collisions among these notebooks and the other notebooks of their folders (which share .ptc/cassettes/ with
// them); a notebook that cannot be read or parsed is left to the command that runs it, which names its problem.
export async function cassetteCollisions(notebooks: readonly string[], cwd: string): Promise<string[]> {
  const folders = new Map<string, Set<string>>();
  for (const notebook of notebooks) {
    const file = path.resolve(cwd, notebook);
    const folder = path.dirname(file);
    if (!folders.has(folder)) {
      const siblings = await fs.readdir(folder).catch(() => [] as string[]);
      folders.set(
        folder,
        new Set(siblings.filter((n) => n.endsWith(NOTEBOOK_FILE_EXTENSION)).map((n) => path.join(folder, n))),
      );
    }
    folders.get(folder)?.add(file);
  }
  const lines: string[] = [];
  for (const files of folders.values()) {
    const owners: CassetteOwner[] = [];
    for (const file of [...files].sort()) {
      const text = await fs.readFile(file, 'utf8').catch(() => undefined);
      const parsed = text === undefined ? undefined : parseNotebook(text);
      if (parsed?.ok === true) owners.push(...cassetteOwners(file, parsed.notebook));
    }
    lines.push(...describeCollisions(owners, cwd));
  }
  return lines;
}
