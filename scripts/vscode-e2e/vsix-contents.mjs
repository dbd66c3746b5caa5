// Checks `vsce ls` against the VSIX allow-list: nothing outside it ships, and everything the extension needs does.
// Usage: node scripts/vscode-e2e/vsix-contents.mjs   (exit 1 with the offending paths on failure)
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './exec.mjs';
import { REPO_ROOT } from './paths.mjs';

const ROOT_FILES = new Set(['package.json', 'package.nls.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'icon.png']);
const REQUIRED_ROOT_FILES = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', 'icon.png'];
// the extension host bundle loads these: the Node child bootstrap, the webviews, esbuild-wasm for bindings modules,
// amaro
const DIST_DIRS = ['dist/runtime/', 'dist/webview/', 'dist/node_modules/'];
const REQUIRED_DIST_FILES = [
  'dist/web-extension.cjs',
  'dist/runtime/node-child.cjs',
  'dist/runtime/bindings-host.mjs',
  'dist/webview/inspector.js',
  'dist/node_modules/esbuild-wasm/lib/main.js',
  'dist/node_modules/esbuild-wasm/bin/esbuild',
  'dist/node_modules/esbuild-wasm/bin/ptc-service.cjs',
  'dist/node_modules/esbuild-wasm/esbuild.wasm',
  'dist/node_modules/esbuild-wasm/wasm_exec_node.js',
  'dist/node_modules/amaro/dist/index.js',
  // the pyodide engine: its child and Pyodide's core files, loaded offline
  'dist/runtime/pyodide-child.cjs',
  'dist/node_modules/pyodide/pyodide.asm.js',
  'dist/node_modules/pyodide/pyodide.asm.wasm',
  'dist/node_modules/pyodide/python_stdlib.zip',
  'dist/node_modules/pyodide/pyodide-lock.json',
];
// Open Tour and Try the Offline Fake Model read these from the extension's folder
const EXAMPLE_FILES = [
  'examples/tour.ptcnb',
  'examples/tour.bindings.ts',
  'examples/models/fake-model-server.mjs',
  'examples/models/fake-model.json',
];

// The files README.md links to by a relative path (docs pages, images): packaged, so the links resolve in the VSIX.
export function readmeLinkTargets(readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')) {
  const targets = new Set();
  for (const [, link] of readme.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][\w+.-]*:/i.test(link) || link.startsWith('#')) continue;
    targets.add(path.posix.normalize(link.split('#')[0]));
  }
  return [...targets].filter(Boolean).sort();
}

// Returns the reason a packaged path is not allowed, or undefined when it is.
export function disallowedReason(file, linked = readmeLinkTargets()) {
  if (ROOT_FILES.has(file) || linked.includes(file)) return undefined;
  if (file.endsWith('.map')) return 'source map (production builds have none)';
  // the VSIX is universal: a per-platform binary package or a native addon would tie it to one platform
  if (/(^|\/)@esbuild\//.test(file)) return "esbuild's per-platform native binary (bindings modules use esbuild-wasm)";
  if (file.endsWith('.node')) return 'a native Node addon (the VSIX is universal)';
  if (
    file === 'dist/extension.cjs' ||
    file === 'dist/web-extension.cjs' ||
    DIST_DIRS.some((dir) => file.startsWith(dir))
  )
    return undefined;
  if (file.startsWith('dist/'))
    return 'a bundle the extension does not load (the CLI and bench bundles stay out of the VSIX)';
  // the walkthrough's pages and the .ptcnb JSON Schema the manifest points at
  // the l10n bundles the manifest's "l10n" folder holds (English and any translations)
  if (/^l10n\/bundle\.l10n(\.[\w-]+)?\.json$/.test(file)) return undefined;
  if (/^media\/walkthrough\/[\w-]+\.md$/.test(file) || file === 'schemas/ptcnb.schema.json') return undefined;
  if (EXAMPLE_FILES.includes(file)) return undefined;
  if (/^examples\/\.ptc\/cassettes\/tour\/[\w-]+\.json$/.test(file)) return undefined;
  if (file.startsWith('python/')) {
    return file.endsWith('.py') && !file.includes('/__pycache__/') ? undefined : 'not a Python source file';
  }
  return 'outside the allow-list (the extension bundles under dist/, python/**/*.py, the walkthrough, the notebook schema and the root metadata files)';
}

// Files the manifest points at (main, the l10n bundle, renderer and inspector entry points, walkthrough pages, JSON
// schemas) must be packaged.
function manifestEntryPoints(manifest) {
  const entries = [];
  for (const walkthrough of manifest.contributes?.walkthroughs ?? []) {
    for (const step of walkthrough.steps ?? [])
      if (typeof step.media?.markdown === 'string') entries.push(step.media.markdown);
  }
  for (const validation of manifest.contributes?.jsonValidation ?? [])
    if (typeof validation.url === 'string') entries.push(validation.url);
  if (typeof manifest.main === 'string') entries.push(manifest.main);
  if (typeof manifest.browser === 'string') entries.push(manifest.browser);
  if (typeof manifest.l10n === 'string') entries.push(path.posix.join(manifest.l10n, 'bundle.l10n.json'));
  for (const renderer of manifest.contributes?.notebookRenderer ?? []) {
    if (typeof renderer.entrypoint === 'string') entries.push(renderer.entrypoint);
  }
  return entries.map((p) => path.posix.normalize(p.replace(/^\.\//, '')));
}

// Lists python/**/*.py relative to the repo (the runner the extension spawns).
async function listPythonSources(dir) {
  const found = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== '__pycache__') found.push(...(await listPythonSources(full)));
    else if (entry.isFile() && entry.name.endsWith('.py'))
      found.push(path.relative(REPO_ROOT, full).split(path.sep).join('/'));
  }
  return found;
}

// Lists the packaged files with vsce and validates them; returns { files, problems }.
export async function checkVsixContents() {
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  const { stdout } = await run(process.execPath, [vsce, 'ls', '--no-dependencies'], {
    cwd: REPO_ROOT,
    timeoutMs: 120_000,
  });
  const files = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const problems = [];
  const linked = readmeLinkTargets();
  for (const file of files) {
    const reason = disallowedReason(file, linked);
    if (reason) problems.push(`${file}: ${reason}`);
  }
  const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  for (const required of [
    ...REQUIRED_ROOT_FILES,
    ...REQUIRED_DIST_FILES,
    ...EXAMPLE_FILES,
    ...manifestEntryPoints(manifest),
    ...linked,
  ]) {
    if (!files.includes(required))
      problems.push(
        `${required}: required but not packaged${existsSync(path.join(REPO_ROOT, required)) ? '' : ' (the file does not exist; run the build)'}`,
      );
  }
  if (typeof manifest.main !== 'string')
    problems.push('package.json: no "main" entry point, so the VSIX would carry no extension code');
  const pythonSources = await listPythonSources(path.join(REPO_ROOT, 'python'));
  for (const source of pythonSources) {
    if (!files.includes(source)) problems.push(`${source}: part of the Python runner but not packaged`);
  }
  return { files, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, problems } = await checkVsixContents();
  if (problems.length > 0) {
    process.stderr.write(`vsce ls: ${problems.length} problem(s) in the VSIX contents:\n  ${problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`vsce ls: ${files.length} files, all on the allow-list\n`);
}
