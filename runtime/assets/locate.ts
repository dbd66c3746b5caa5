import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

declare const __dirname: string | undefined;

// Directory of this code: the bundle's own folder when bundled (CJS or ESM), the source folder under vitest.
function hereDir(): string {
  if (typeof __dirname === 'string') return __dirname;
  return path.dirname(fileURLToPath(import.meta.url));
}

// Finds a shipped asset (e.g. `runtime/node-child.cjs` under dist/, or `python/runner.py`) from wherever this runs.
export function locateAsset(relative: string, roots: readonly string[] = []): string | undefined {
  const bases: string[] = [...roots];
  let dir = hereDir();
  for (let i = 0; i < 6; i++) {
    bases.push(dir, path.join(dir, 'dist'));
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const base of bases) {
    const candidate = path.join(base, relative);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}
