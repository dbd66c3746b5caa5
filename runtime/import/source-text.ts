import fs from 'node:fs/promises';
import { ioReason } from '../files/read-text.js';
import { ImportFailure } from './import-error.js';
import { IMPORT_LIMITS } from './limits.js';

// A transcript file's text; `label` is how messages name the file.
export interface SourceText {
  label: string;
  text: string;
}

// Reads a file without trusting its size or encoding: larger than the limit or not UTF-8 is one located message.
export async function readSourceText(file: string, label: string = file): Promise<SourceText> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    throw new ImportFailure({
      file: label,
      message: `cannot read the file (${ioReason(error)})`,
    });
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ImportFailure({ file: label, message: 'not a regular file' });
    if (stat.size > IMPORT_LIMITS.maxFileBytes) throw tooLarge(label, stat.size);
    // read at most one byte past the limit: a file that grows while it is read is still bounded
    const buffer = Buffer.alloc(Math.min(stat.size, IMPORT_LIMITS.maxFileBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > IMPORT_LIMITS.maxFileBytes) throw tooLarge(label, length);
    return { label, text: decodeUtf8(buffer.subarray(0, length), label) };
  } finally {
    await handle.close();
  }
}

function tooLarge(label: string, size: number): ImportFailure {
  return new ImportFailure({
    file: label,
    message: `the file is ${size} bytes; transcripts up to ${IMPORT_LIMITS.maxFileBytes} bytes are imported`,
  });
}

// Strict UTF-8 (a BOM is dropped); the first invalid byte is reported with its line and column.
export function decodeUtf8(bytes: Uint8Array, label: string): string {
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < bad; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new ImportFailure({
      file: label,
      line,
      column: bad - lineStart + 1,
      message: `invalid UTF-8 at byte ${bad} (transcripts must be UTF-8 text)`,
    });
  }
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// Offset of the first byte that does not start or continue a well-formed UTF-8 sequence, or -1.
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      code = (code << 6) | (c & 0x3f);
    }
    // overlong forms, UTF-16 surrogates and values past U+10FFFF are not UTF-8
    if (code < min || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return i;
    i += need + 1;
  }
  return -1;
}
