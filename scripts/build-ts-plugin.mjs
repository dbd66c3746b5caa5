// Builds the TS server plugin package (extension/ts-plugin/) into dist/ts-plugin/: index.js, its package.json and
// the Node declarations it gives notebook cells (@types/node, undici-types). The VS Code TypeScript extension loads a
// contributed plugin from <extension>/node_modules/<name>, so `npm run package` puts this folder there in the VSIX.
import { build as esbuild } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TS_PLUGIN_NAME = 'ptc-notebook-ts-plugin';
export const TS_PLUGIN_DIR = 'dist/ts-plugin';

// Copies a declarations package's .d.ts files, package.json and licence (skipping folders for older TypeScripts).
async function copyDeclarations(from, to, skip = new Set()) {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      if (!skip.has(entry.name) && entry.name !== 'node_modules') await copyDeclarations(source, target);
    } else if (entry.name.endsWith('.d.ts') || entry.name === 'package.json' || entry.name === 'LICENSE') {
      await mkdir(to, { recursive: true });
      await copyFile(source, target);
    }
  }
}

// `out`: where the package goes (tests build one into a temp folder)
export default async function build({ production = false, out = path.join(root, TS_PLUGIN_DIR) } = {}) {
  await rm(out, { recursive: true, force: true });
  await esbuild({
    absWorkingDir: root,
    entryPoints: ['extension/ts-plugin/plugin.ts'],
    outfile: path.join(out, 'index.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // the TS server requires the module to be the factory function itself
    footer: { js: 'module.exports = module.exports.default;' },
    minify: production,
    sourcemap: false,
    legalComments: production ? 'none' : 'eof',
    logLevel: 'silent',
  });
  const require = createRequire(path.join(root, 'package.json'));
  const nodeTypes = path.dirname(require.resolve('@types/node/package.json'));
  const undiciTypes = path.dirname(require.resolve('undici-types/package.json', { paths: [nodeTypes] }));
  const { version: nodeVersion } = JSON.parse(await readFile(path.join(nodeTypes, 'package.json'), 'utf8'));
  await copyDeclarations(nodeTypes, path.join(out, 'node_modules', '@types', 'node'), new Set(['ts5.6']));
  await copyDeclarations(undiciTypes, path.join(out, 'node_modules', 'undici-types'));
  const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const manifest = { name: TS_PLUGIN_NAME, version, private: true, license: 'MIT', main: 'index.js' };
  await writeFile(path.join(out, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  process.stdout.write(`ts-plugin: ${TS_PLUGIN_NAME} with @types/node ${nodeVersion}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
