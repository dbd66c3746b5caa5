// `npm run pack:cli`: the `ptc` command line as an npm package, ptc-playground-<version>.tgz, that installs with
// `npm install -g <tarball>` (or runs with `npx --package <tarball> ptc …`) and needs nothing from the registry.
// Everything `ptc` runs is bundled into dist/ (scripts/build-runtime.mjs, build-extension.mjs): the CLI, the Node child
// bootstrap, the bindings host, esbuild-wasm and amaro; the Python runner is python/*.py. So the package declares no
// dependencies at all, and its manifest is written here rather than being the repository's package.json, which is the
// VS Code extension's manifest (vsce refuses a `files` list beside .vscodeignore, and the VSIX ships other files).
// Usage: node scripts/pack-cli.mjs [--no-build] [--out-dir <folder>]
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// What `ptc` loads at run time, relative to the package root (the same layout as a checkout, so
// runtime/assets/locate.ts and dist/cli.mjs's import('amaro') find them the same way).
const FILES = [
  'dist/cli.mjs',
  'dist/runtime/node-child.cjs',
  'dist/runtime/bindings-host.mjs',
  // the WebAssembly engines (`--engine wasm`, and `auto` where the OS sandbox is missing)
  'dist/runtime/quickjs-child.cjs',
  'dist/runtime/pyodide-child.cjs',
];
const FOLDERS = ['dist/node_modules/esbuild-wasm', 'dist/node_modules/amaro', 'dist/node_modules/pyodide', 'python'];
const DOCS = ['README.md', 'LICENSE', 'CHANGELOG.md'];

// Source maps (a development build writes them) and Python bytecode caches stay out.
const shipped = (file) => !file.endsWith('.map') && !file.includes('__pycache__') && !file.endsWith('.pyc');

async function listFiles(dir) {
  const found = [];
  for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(rel)));
    else if (entry.isFile() && shipped(rel)) found.push(rel);
  }
  return found;
}

// The package's manifest: what npm needs to install `ptc`, taken from the repository's where they agree.
export function cliManifest(repo) {
  const manifest = {
    name: repo.name,
    version: repo.version,
    description:
      'The ptc command line of PTC Playground: run, record, replay and test model programs (programmatic tool calling) in sandboxed TypeScript and Python processes.',
    license: repo.license,
    keywords: repo.keywords,
    type: 'module',
    bin: { ptc: 'dist/cli.mjs' },
    files: [...FILES, ...FOLDERS.map((f) => `${f}/`), 'CHANGELOG.md'],
    engines: { node: repo.engines.node },
  };
  // a real repository only: the extension's manifest has none until the project has a public home
  if (repo.repository !== undefined) manifest.repository = repo.repository;
  return manifest;
}

// Copies what the package ships into `stage` and writes its manifest; returns the files copied.
export async function stageCliPackage(stage) {
  const repo = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
  const files = [...FILES, ...DOCS];
  for (const folder of FOLDERS) files.push(...(await listFiles(folder)));
  for (const file of files) {
    await mkdir(path.dirname(path.join(stage, file)), { recursive: true });
    try {
      await copyFile(path.join(root, file), path.join(stage, file));
    } catch (error) {
      throw new Error(`${file}: ${error.code === 'ENOENT' ? 'missing (run npm run build first)' : error.message}`, {
        cause: error,
      });
    }
  }
  await writeFile(path.join(stage, 'package.json'), `${JSON.stringify(cliManifest(repo), null, 2)}\n`);
  return files;
}

// Builds (unless build is false), stages and packs; returns { tarball, files } with files as npm packed them.
export async function packCli({ build = true, outDir = root } = {}) {
  if (build) await exec(process.execPath, [path.join(root, 'scripts', 'build.mjs'), '--production'], { cwd: root });
  const stage = await mkdtemp(path.join(os.tmpdir(), 'ptc-cli-stage-'));
  try {
    await stageCliPackage(stage);
    await mkdir(outDir, { recursive: true });
    // the stage has no scripts, so npm pack runs none; --json lists what went in
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', path.resolve(outDir)], {
      cwd: stage,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout);
    return { tarball: path.join(path.resolve(outDir), packed.filename), files: packed.files.map((f) => f.path).sort() };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out-dir');
  const { tarball, files } = await packCli({
    build: !args.includes('--no-build'),
    ...(at === -1 ? {} : { outDir: args[at + 1] }),
  });
  process.stdout.write(`${path.relative(process.cwd(), tarball) || tarball}: ${files.length} files\n`);
  process.stdout.write(
    `install: npm install -g ${path.relative(process.cwd(), tarball) || tarball}   then: ptc --version\n`,
  );
}
