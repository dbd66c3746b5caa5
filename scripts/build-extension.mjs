// Bundles the VS Code extension host code: one CommonJS file for Node 20, `vscode` left to the editor.
import { build as esbuild } from 'esbuild';
import { copyFile, mkdir, readFile, stat, rename } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EXTENSION_BUNDLE = 'dist/extension.cjs';

// Bindings modules are bundled at run time by esbuild (runtime/bindings/module-import.ts), which the VSIX has no
// node_modules for: ship its JS API and this platform's binary where `import('esbuild')` from dist/ resolves them.
async function copyEsbuild() {
  const require = createRequire(path.join(root, 'package.json'));
  const esbuildDir = path.dirname(require.resolve('esbuild/package.json'));
  const { version } = JSON.parse(await readFile(path.join(esbuildDir, 'package.json'), 'utf8'));
  const platformPackage = `@esbuild/${process.platform}-${process.arch}`;
  const binaryDir = path.dirname(require.resolve(`${platformPackage}/package.json`, { paths: [esbuildDir] }));
  const binary = process.platform === 'win32' ? 'esbuild.exe' : path.join('bin', 'esbuild');
  const files = [
    [path.join(esbuildDir, 'package.json'), 'esbuild/package.json'],
    [path.join(esbuildDir, 'lib', 'main.js'), 'esbuild/lib/main.js'],
    [path.join(esbuildDir, 'LICENSE.md'), 'esbuild/LICENSE.md'],
    [path.join(binaryDir, 'package.json'), `${platformPackage}/package.json`],
    [path.join(binaryDir, binary), `${platformPackage}/${binary.split(path.sep).join('/')}`],
  ];
  for (const [from, to] of files) {
    const target = path.join(root, 'dist', 'node_modules', to);
    await mkdir(path.dirname(target), { recursive: true });
    // copy then rename: the binary may be running (a bindings module being bundled), and a busy file cannot be overwritten
    const partial = `${target}.${process.pid}.partial`;
    await copyFile(from, partial);
    await rename(partial, target);
  }
  return `esbuild ${version} (${platformPackage})`;
}

// amaro (swc in wasm, 3.5 MB) strips types from TypeScript cells; it stays out of the activation bundle and is loaded
// from dist/node_modules by runtime/typescript/strip.ts's import('amaro') on the first TypeScript run.
async function copyAmaro() {
  const require = createRequire(path.join(root, 'package.json'));
  // amaro's exports map hides package.json: resolve its main file, two levels below the package folder
  const amaroDir = path.dirname(path.dirname(require.resolve('amaro')));
  const { version } = JSON.parse(await readFile(path.join(amaroDir, 'package.json'), 'utf8'));
  for (const file of ['package.json', 'LICENSE.md', 'dist/index.js', 'dist/package.json', 'dist/LICENSE']) {
    const target = path.join(root, 'dist', 'node_modules', 'amaro', file);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(amaroDir, file), target);
  }
  return `amaro ${version}`;
}

export default async function build({ production = false } = {}) {
  const shipped = `${await copyEsbuild()}, ${await copyAmaro()}`;
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: ['extension/extension.ts'],
    outfile: EXTENSION_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'amaro'],
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
  process.stdout.write(`extension: ${path.basename(EXTENSION_BUNDLE)} ${(size / 1024).toFixed(0)} KiB, ships ${shipped}\n`);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
