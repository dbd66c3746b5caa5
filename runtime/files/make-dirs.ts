import fs from 'node:fs';
import path from 'node:path';

// Creates `dir` and any missing parents, like `mkdir -p`, one level at a time. Node's own `{ recursive: true }`
// never returns under /proc (`mkdir('/proc/x/y')` spins a core forever: the kernel's ENOENT there sends it back up and
// down the path); here a level that cannot be made fails with that level's error.
export function makeDirsSync(dir: string, options: { mode?: number } = {}): void {
  const missing: string[] = [];
  let at = path.resolve(dir);
  for (;;) {
    const stat = fs.statSync(at, { throwIfNoEntry: false });
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
      break;
    }
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const level of missing.reverse()) {
    try {
      fs.mkdirSync(level, options.mode === undefined ? {} : { mode: options.mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
