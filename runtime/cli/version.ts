import fs from 'node:fs';

// The version of the package this file was installed with (dist/cli.mjs sits one folder below package.json).
export function ptcVersion(): string {
  try {
    const manifest = JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
