import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Every run stages a private temp dir (and the Python probe compiles into one) under os.tmpdir(): a TMPDIR that names
// a file, a missing or read-only directory is a misconfiguration of the host, reported once in plain words.
export function tempDirProblem(): string | undefined {
  const dir = os.tmpdir();
  try {
    fs.rmdirSync(fs.mkdtempSync(path.join(dir, 'ptc-check-')));
    return undefined;
  } catch (error) {
    return describeProblem(dir, error);
  }
}

// The same check without blocking the event loop: it runs before every run, beside other runs' traffic.
export async function tempDirProblemAsync(): Promise<string | undefined> {
  const dir = os.tmpdir();
  try {
    await fs.promises.rmdir(await fs.promises.mkdtemp(path.join(dir, 'ptc-check-')));
    return undefined;
  } catch (error) {
    return describeProblem(dir, error);
  }
}

function describeProblem(dir: string, error: unknown): string {
  const source =
    process.env.TMPDIR !== undefined
      ? 'TMPDIR'
      : process.env.TMP !== undefined
        ? 'TMP'
        : process.env.TEMP !== undefined
          ? 'TEMP'
          : 'the default';
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  return `the temporary directory ${JSON.stringify(dir)} (${source}) is not a writable directory (${code}); point TMPDIR at one`;
}
