import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { writeFileAtomically, writeFileAtomicallySync } from '../../../runtime/files/atomic-write.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-atomic-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('atomic writes', () => {
  test('many concurrent writers of one file all succeed, the file is one of their texts whole, no temp file stays', async () => {
    const file = path.join(dir, 'shared.json');
    const texts = Array.from({ length: 40 }, (_, i) => `${String(i).repeat(10_000)}\n`);
    await Promise.all(texts.map((text) => writeFileAtomically(file, text)));
    expect(texts).toContain(fs.readFileSync(file, 'utf8'));
    expect(fs.readdirSync(dir)).toEqual(['shared.json']);
  });

  test('a failed write leaves the old file as it was and no temp file', async () => {
    const file = path.join(dir, 'kept.txt');
    writeFileAtomicallySync(file, 'old\n', { mode: 0o600 });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // renaming a file over a directory fails after the temp file was written
    const target = path.join(dir, 'a-directory');
    fs.mkdirSync(path.join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomically(target, 'new\n')).rejects.toThrow();
    expect(() => writeFileAtomicallySync(target, 'new\n')).toThrow();
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
    expect(fs.readdirSync(dir).sort()).toEqual(['a-directory', 'kept.txt', 'shared.json']);
  });
});
