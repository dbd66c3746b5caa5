import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { type ImportOptions, type ImportPlan, planImport, writeImportPlan } from '../../../runtime/import/index.js';
import { parseNotebook } from '../../../runtime/notebook/parse.js';
import type { NotebookFile } from '../../../runtime/notebook/schema.js';

export const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
export const EXAMPLES = path.resolve(import.meta.dirname, '../../../examples/transcripts');

// A private folder per test file, removed afterwards.
export function scratch(prefix: string): () => string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  let n = 0;
  return () => {
    const dir = path.join(root, `case-${++n}`);
    fs.mkdirSync(dir);
    return dir;
  };
}

export interface Imported {
  dir: string;
  out: string;
  plan: ImportPlan;
  notebook: NotebookFile;
}

// Plans and writes an import into a fresh folder; fails the test when the transcript does not import.
export async function importInto(
  dir: string,
  files: string[],
  options: Partial<ImportOptions> = {},
): Promise<Imported> {
  const out = path.join(dir, 'imported.ptcnb');
  const outcome = await planImport({ files, out, ...options });
  if (!outcome.ok) throw new Error(`import failed: ${outcome.message}`);
  const written = await writeImportPlan(outcome.plan);
  expect(written).toMatchObject({ ok: true });
  const parsed = parseNotebook(fs.readFileSync(out, 'utf8'));
  if (!parsed.ok) throw new Error(`the imported notebook does not parse: ${JSON.stringify(parsed.problems)}`);
  return { dir, out, plan: outcome.plan, notebook: parsed.notebook };
}

// Every file under a folder, as text.
export function allWritten(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push({ file: full, text: fs.readFileSync(full, 'utf8') });
    }
  };
  walk(dir);
  return out;
}

export function cellById(notebook: NotebookFile, id: string) {
  const cell = notebook.cells.find((c) => c.metadata?.id === id);
  if (cell === undefined) throw new Error(`no cell ${id}: ${notebook.cells.map((c) => c.metadata?.id).join(', ')}`);
  return cell;
}
