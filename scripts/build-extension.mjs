// Bundles the VS Code extension host code: one CommonJS file for Node 20, `vscode` left to the editor.
import { build as esbuild } from 'esbuild';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EXTENSION_BUNDLE = 'dist/extension.cjs';

export default async function build({ production = false } = {}) {
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: ['extension/extension.ts'],
    outfile: EXTENSION_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // runtime/assets/locate.ts finds dist/runtime/node-child.cjs and python/*.py from this file's folder
    define: { 'import.meta.url': '__ptcImportMetaUrl' },
    banner: { js: "const __ptcImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: production ? 'none' : 'eof',
    logLevel: 'silent',
  });
  for (const warning of result.warnings) process.stderr.write(`build-extension: ${warning.text}\n`);
  const size = (await stat(path.join(root, EXTENSION_BUNDLE))).size;
  process.stdout.write(`extension: ${path.basename(EXTENSION_BUNDLE)} ${(size / 1024).toFixed(0)} KiB\n`);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
