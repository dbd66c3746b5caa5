// `npm run package`: production build, VSIX allow-list check, then `vsce package` → ptc-playground-<version>.vsix.
// Usage: node scripts/vscode-e2e/package.mjs [--no-build] [--out <file.vsix>]
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from './exec.mjs';
import { REPO_ROOT } from './paths.mjs';
import { checkVsixContents } from './vsix-contents.mjs';

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

// Builds and packages the extension; returns { vsix, bytes, files }.
export async function packageExtension({ build = true, out, logFile } = {}) {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  const vsix = path.resolve(REPO_ROOT, out ?? `${manifest.name}-${manifest.version}.vsix`);
  if (build) {
    await removeStaleMaps(path.join(REPO_ROOT, 'dist'));
    await run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--production'], { cwd: REPO_ROOT, logFile });
  }
  const { files, problems } = await checkVsixContents();
  if (problems.length > 0) throw new Error(`the VSIX contents are not on the allow-list:\n  ${problems.join('\n  ')}`);
  const vsce = path.join(REPO_ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
  // --no-dependencies: everything the extension needs is bundled into dist/
  await run(process.execPath, [vsce, 'package', '--no-dependencies', '--out', vsix], { cwd: REPO_ROOT, logFile, timeoutMs: 300_000, input: '' });
  const { size } = await stat(vsix);
  return { vsix, bytes: size, files };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  try {
    const { vsix, bytes, files } = await packageExtension({ build: !args.includes('--no-build'), out: outAt >= 0 ? args[outAt + 1] : undefined });
    process.stdout.write(`packaged ${path.relative(process.cwd(), vsix) || vsix}: ${files.length} files, ${(bytes / 1024).toFixed(1)} KiB\n  ${files.join('\n  ')}\n`);
  } catch (error) {
    process.stderr.write(`package: ${error.message}\n`);
    process.exit(1);
  }
}
