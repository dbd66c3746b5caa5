// Bundles the extension-host suites (test/vscode/*.vscode.test.ts) and the mocha runner with esbuild, one
// directory per pass. Files named *.untrusted.vscode.test.ts form the Restricted Mode pass; the rest run trusted.
import { readdir, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { TEST_SOURCE_DIR } from './paths.mjs';

export const PASSES = /** @type {const} */ (['trusted', 'untrusted']);

// Lists the suites of each pass, optionally narrowed by substrings of the file name (PTC_E2E_FILTER, comma-separated).
export async function listSuites(filter) {
  const files = (await readdir(TEST_SOURCE_DIR)).filter((f) => f.endsWith('.vscode.test.ts')).sort();
  const parts = filter ? filter.split(',').filter((p) => p !== '') : [];
  const chosen = parts.length > 0 ? files.filter((f) => parts.some((p) => f.includes(p))) : files;
  return {
    trusted: chosen.filter((f) => !f.endsWith('.untrusted.vscode.test.ts')),
    untrusted: chosen.filter((f) => f.endsWith('.untrusted.vscode.test.ts')),
  };
}

const COMMON = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: 'inline',
  logLevel: 'warning',
};

// Writes <outRoot>/<pass>/{index.cjs, manifest.json, *.vscode.test.cjs}; returns the passes that have suites.
export async function bundleSuites({ outRoot, filter, timeoutMs = 120_000, grep }) {
  const suites = await listSuites(filter);
  const bundles = {};
  for (const pass of PASSES) {
    const files = suites[pass];
    if (files.length === 0) continue;
    const outdir = path.join(outRoot, pass);
    await mkdir(outdir, { recursive: true });
    await build({
      ...COMMON,
      entryPoints: files.map((f) => path.join(TEST_SOURCE_DIR, f)),
      outdir,
      outExtension: { '.js': '.cjs' },
    });
    await build({
      ...COMMON,
      entryPoints: [path.join(TEST_SOURCE_DIR, 'runner', 'mocha-runner.ts')],
      outfile: path.join(outdir, 'index.cjs'),
      sourcemap: false,
      // only mocha's parallel mode resolves these, and the runner is serial
      logOverride: { 'require-resolve-not-external': 'silent' },
    });
    const compiled = files.map((f) => f.replace(/\.ts$/, '.cjs'));
    await writeFile(
      path.join(outdir, 'manifest.json'),
      JSON.stringify({ pass, files: compiled, timeoutMs, ...(grep ? { grep } : {}) }, null, 2),
    );
    bundles[pass] = { dir: outdir, index: path.join(outdir, 'index.cjs'), files };
  }
  return bundles;
}
