import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// A temp file beside the target, unique per process and call, so two writers never share one.
function tempBeside(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

// Writes through a temp file and a rename: a reader or a crash never sees half a file.
export async function writeFileAtomically(file: string, text: string, options: { mode?: number } = {}): Promise<void> {
  const temp = tempBeside(file);
  try {
    await fs.promises.writeFile(temp, text, { encoding: 'utf8', mode: options.mode });
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

// The same, synchronously.
export function writeFileAtomicallySync(file: string, text: string, options: { mode?: number } = {}): void {
  const temp = tempBeside(file);
  try {
    fs.writeFileSync(temp, text, { encoding: 'utf8', mode: options.mode });
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
