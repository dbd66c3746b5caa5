// `npm run package`: production build, VSIX allow-list check, then `vsce package` → ptc-playground-<version>.vsix, one
// universal VSIX for every platform (checked: no native binary inside).
// Usage: node scripts/vscode-e2e/package.mjs [--no-build] [--out <file.vsix>]
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './exec.mjs';
import { REPO_ROOT } from './paths.mjs';
import { checkVsixContents } from './vsix-contents.mjs';
import { inspectVsix } from './vsix-inspect.mjs';
import { addTsPlugin } from './vsix-ts-plugin.mjs';

// Removes source maps a development build left in dist/; the production build writes none.
async function removeStaleMaps(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await removeStaleMaps(full);
    else if (entry.name.endsWith('.map')) await rm(full, { force: true });
  }
}

// README links and images are relative to the repo; vsce only derives absolute ones for GitHub/GitLab URLs itself.
// Without a repository (none until the project has a public home) they stay relative and resolve inside the VSIX,
// which ships every file the README links to (vsix-contents.mjs requires them).
function linkBases(manifest) {
  const url = typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
  if (typeof url !== 'string') return ['--allow-missing-repository', '--no-rewrite-relative-links'];
  if (/github\.com|gitlab\.com/.test(url)) return [];
  const base = url.replace(/^git\+/, '').replace(/\.git$/, '');
  return ['--baseContentUrl', `${base}/blob/HEAD/`, '--baseImagesUrl', `${base}/raw/HEAD/`];
}

// Builds and packages the extension; returns { vsix, bytes, files }.
export async function packageExtension({ build = true, out, logFile } = {}) {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const vsix = path.resolve(REPO_ROOT, out ?? `${manifest.name}-${manifest.version}.vsix`);
  if (build) {
    await removeStaleMaps(path.join(REPO_ROOT, 'dist'));
    await run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--production'], {
      cwd: REPO_ROOT,
      logFile,
    });
  }
  const { files, problems } = await checkVsixContents();
  if (problems.length > 0) throw new Error(`the VSIX contents are not on the allow-list:\n  ${problems.join('\n  ')}`);
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  // vsce walks every file below its folder (.git, caches, test results): package a staged copy of exactly the
  // checked file list instead, which is faster and cannot pick up anything the check did not see
  const stage = await mkdtemp(path.join(os.tmpdir(), 'ptc-vsix-stage-'));
  try {
    for (const file of [...files, '.vscodeignore']) {
      await mkdir(path.dirname(path.join(stage, file)), { recursive: true });
      await copyFile(path.join(REPO_ROOT, file), path.join(stage, file));
    }
    // the production build above is what vscode:prepublish runs; the stage has no scripts/ to run it again
    const staged = JSON.parse(await readFile(path.join(stage, 'package.json'), 'utf8'));
    delete staged.scripts['vscode:prepublish'];
    await writeFile(path.join(stage, 'package.json'), `${JSON.stringify(staged, null, 2)}\n`);
    // --no-dependencies: everything the extension needs is bundled into dist/. No --target: nothing shipped is native
    // (bindings modules are bundled by esbuild-wasm), so this one universal VSIX installs on every platform VS Code
    // runs on
    await run(process.execPath, [vsce, 'package', '--no-dependencies', ...linkBases(manifest), '--out', vsix], {
      cwd: stage,
      logFile,
      timeoutMs: 300_000,
      input: '',
    });
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  // the TS server plugin must sit in the extension's own node_modules, which vsce leaves out (vsix-ts-plugin.mjs)
  const plugins = manifest.contributes?.typescriptServerPlugins ?? [];
  for (const plugin of plugins) files.push(...(await addTsPlugin(vsix, plugin.name)));
  // checked last, so the plugin added above is checked too
  const { problems: native } = await inspectVsix(vsix);
  if (native.length > 0) throw new Error(`the VSIX would not be universal:\n  ${native.join('\n  ')}`);
  const { size } = await stat(vsix);
  return { vsix, bytes: size, files };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  try {
    const { vsix, bytes, files } = await packageExtension({
      build: !args.includes('--no-build'),
      out: outAt >= 0 ? args[outAt + 1] : undefined,
    });
    process.stdout.write(
      `packaged ${path.relative(process.cwd(), vsix) || vsix}: ${files.length} files, ${(bytes / 1024).toFixed(1)} KiB\n  ${files.join('\n  ')}\n`,
    );
  } catch (error) {
    process.stderr.write(`package: ${error.message}\n`);
    process.exit(1);
  }
}
