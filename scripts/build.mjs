// Runs every scripts/build-*.mjs part; each owns one bundle family and writes into dist/.
import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const production = process.argv.includes('--production');
const parts = (await readdir(here)).filter((f) => /^build-.+\.mjs$/.test(f)).sort();
const started = Date.now();
await Promise.all(
  parts.map(async (file) => {
    const mod = await import(pathToFileURL(path.join(here, file)).href);
    await mod.default({ production });
  }),
);
process.stdout.write(`built ${parts.length} part(s) in ${Date.now() - started} ms\n`);
