import fs from 'node:fs/promises';

// Whether something (a file, a folder, a dangling link) is at the path: what a write would replace.
export async function pathExists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
