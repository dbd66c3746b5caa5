// Bundles the VS Code extension host code: one CommonJS file for Node 20, `vscode` left to the editor.
import { build as esbuild } from 'esbuild';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zodEnglishOnly } from './esbuild-zod-english.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const EXTENSION_BUNDLE = 'dist/extension.cjs';

// Bindings modules are bundled at run time by esbuild (runtime/bindings/module-import.ts), which the VSIX has no
// node_modules for. esbuild-wasm has the same JS API as esbuild but runs esbuild as WebAssembly, so one VSIX runs on
// every platform: ship its JS API, its Node launcher and the .wasm where `import('esbuild-wasm')` from dist/ finds
// them.
const ESBUILD_WASM_FILES = [
  'package.json',
  'LICENSE.md',
  'lib/main.js',
  'bin/esbuild',
  'wasm_exec.js',
  'wasm_exec_node.js',
  'esbuild.wasm',
];
// esbuild-wasm starts its service as `node bin/esbuild`, found on PATH; the bindings host may run as the editor's own
// executable (ELECTRON_RUN_AS_NODE) on a machine with no `node` on PATH, so it starts the service with its own
// executable, through SERVICE_LAUNCHER.
const SERVICE_COMMAND = 'return ["node", [path2.join(__dirname, "..", "bin", "esbuild")]];';
const SERVICE_COMMAND_PATCHED = 'return [process.execPath, [path2.join(__dirname, "..", "bin", "ptc-service.cjs")]];';
// V8 compiles the 14 MB of WebAssembly with its baseline compiler only: its optimizing tier costs about 1.5 s more CPU
// at every start of a bindings host, for builds (a bindings module and its relative imports) that take milliseconds
const SERVICE_LAUNCHER = `// Written by scripts/build-extension.mjs: esbuild-wasm's service, WebAssembly compiled by V8's baseline tier only.
require('node:v8').setFlagsFromString('--liftoff-only');
require('./esbuild');
`;

// write then rename: a bindings host may be reading the old copy
async function replaceFile(target, contents) {
  const partial = `${target}.${process.pid}.partial`;
  await writeFile(partial, contents);
  await rename(partial, target);
}

async function copyEsbuildWasm() {
  const require = createRequire(path.join(root, 'package.json'));
  const from = path.dirname(require.resolve('esbuild-wasm/package.json'));
  const { version } = JSON.parse(await readFile(path.join(from, 'package.json'), 'utf8'));
  const modules = path.join(root, 'dist', 'node_modules');
  // an earlier build shipped the native esbuild here: a stale copy would put a platform binary back into the VSIX
  await rm(path.join(modules, 'esbuild'), { recursive: true, force: true });
  await rm(path.join(modules, '@esbuild'), { recursive: true, force: true });
  for (const file of ESBUILD_WASM_FILES) {
    const target = path.join(modules, 'esbuild-wasm', file);
    await mkdir(path.dirname(target), { recursive: true });
    let contents = await readFile(path.join(from, file));
    if (file === 'lib/main.js') {
      const text = contents.toString('utf8');
      if (text.split(SERVICE_COMMAND).length !== 2)
        throw new Error(
          `esbuild-wasm ${version}: lib/main.js no longer starts its service as \`node bin/esbuild\`; review the patch`,
        );
      contents = Buffer.from(text.replace(SERVICE_COMMAND, SERVICE_COMMAND_PATCHED), 'utf8');
    }
    await replaceFile(target, contents);
  }
  await replaceFile(path.join(modules, 'esbuild-wasm', 'bin', 'ptc-service.cjs'), SERVICE_LAUNCHER);
  return `esbuild-wasm ${version}`;
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

// Pyodide's core files (CPython compiled to WebAssembly, its standard library and lock file, ~12 MB) for the pyodide
// engine's child (dist/runtime/pyodide-child.cjs bundles the loader); they load from this folder, never the network.
export const PYODIDE_FILES = [
  'package.json',
  'pyodide.asm.js',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
  'pyodide-lock.json',
];
async function copyPyodide() {
  const require = createRequire(path.join(root, 'package.json'));
  const from = path.dirname(require.resolve('pyodide/package.json'));
  const { version } = JSON.parse(await readFile(path.join(from, 'package.json'), 'utf8'));
  for (const file of PYODIDE_FILES) {
    const target = path.join(root, 'dist', 'node_modules', 'pyodide', file);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(path.join(from, file), target);
  }
  return `pyodide ${version}`;
}

// outfile: where the bundle goes (the bench measures a production copy in dist/bench/ without touching
// dist/extension.cjs)
export default async function build({ production = false, outfile = EXTENSION_BUNDLE } = {}) {
  const shipped = `${await copyEsbuildWasm()}, ${await copyAmaro()}, ${await copyPyodide()}`;
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: ['extension/extension.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', 'amaro'],
    plugins: [zodEnglishOnly],
    // runtime/assets/locate.ts finds dist/runtime/node-child.cjs and python/*.py from this file's folder
    define: { 'import.meta.url': '__ptcImportMetaUrl' },
    // __ptcBundleStart: extension.ts logs 'activated in N ms', counted from the bundle's first line to the end of
    // activate()
    banner: {
      js: "const __ptcBundleStart = performance.now(); const __ptcImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: production ? 'none' : 'eof',
    logLevel: 'silent',
  });
  for (const warning of result.warnings) process.stderr.write(`build-extension: ${warning.text}\n`);
  const size = (await stat(path.resolve(root, outfile))).size;
  process.stdout.write(`extension: ${path.basename(outfile)} ${(size / 1024).toFixed(0)} KiB, ships ${shipped}\n`);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
