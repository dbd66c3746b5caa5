import fs from 'node:fs/promises';
import { errorMessage } from '../output/error-message.js';

export type TextRead = { ok: true; text: string } | { ok: false; reason: string };

// Reads a UTF-8 file; a failure is the short reason a message names (ioReason).
export async function readTextFile(file: string): Promise<TextRead> {
  try {
    return { ok: true, text: await fs.readFile(file, 'utf8') };
  } catch (error) {
    return { ok: false, reason: ioReason(error) };
  }
}

// Why a file operation failed, as short as a message wants it: the error's code (ENOENT, EISDIR, EACCES), else its
// text. One place, so every "cannot read …" names the problem alike.
export function ioReason(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? errorMessage(error);
}
