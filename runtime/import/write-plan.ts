import fs from 'node:fs/promises';
import path from 'node:path';
import { pathExists } from '../files/exists.js';
import type { ImportPlan } from './assemble.js';
import { makeDirsSync } from '../files/make-dirs.js';
import { errorMessage } from '../output/error-message.js';

// `exists`: files the import would replace (nothing was written); `io`: the disk refused (nothing was kept).
export type WriteOutcome =
  | { ok: true; written: string[] }
  | { ok: false; reason: 'exists'; existing: string[]; message: string }
  | { ok: false; reason: 'io'; message: string };

// Writes an import all or nothing: existing files are never replaced without `force`, every file goes to a temp name
// first, and the notebook is renamed into place last (a crash never leaves a notebook pointing at missing cassettes).
export async function writeImportPlan(plan: ImportPlan, options: { force?: boolean } = {}): Promise<WriteOutcome> {
  const targets = [...plan.files, { path: plan.notebookPath, text: plan.notebookText }];
  const existing: string[] = [];
  for (const target of targets) if (await pathExists(target.path)) existing.push(target.path);
  if (existing.length > 0 && options.force !== true) {
    const shown = existing.slice(0, 3).join(', ');
    return {
      ok: false,
      reason: 'exists',
      existing,
      message: `${shown}${existing.length > 3 ? ` and ${existing.length - 3} more` : ''} already exist${existing.length === 1 ? 's' : ''}; nothing was written (use --force to replace)`,
    };
  }
  const temps: string[] = [];
  const placed: string[] = [];
  try {
    for (const target of targets) {
      makeDirsSync(path.dirname(target.path));
      const temp = path.join(path.dirname(target.path), `.${path.basename(target.path)}.${process.pid}.import.tmp`);
      temps.push(temp);
      await fs.writeFile(temp, target.text, { encoding: 'utf8', flag: 'wx' });
    }
    for (const [i, target] of targets.entries()) {
      await fs.rename(temps[i] as string, target.path);
      if (!existing.includes(target.path)) placed.push(target.path);
    }
    return { ok: true, written: targets.map((t) => t.path) };
  } catch (error) {
    await Promise.all([...temps, ...placed].map((file) => fs.rm(file, { force: true })));
    return {
      ok: false,
      reason: 'io',
      message: `cannot write the import: ${errorMessage(error)}; nothing was kept`,
    };
  }
}
