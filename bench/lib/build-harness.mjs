// Bundles the runtime's public entry (runtime/index.ts) to dist/bench/runtime.mjs, next to the built child bootstrap,
// so the bench drives exactly the code `npm run build` ships.
import { build } from 'esbuild';
import path from 'node:path';

export async function buildRuntimeBundle(repo) {
  const outfile = path.join(repo, 'dist', 'bench', 'runtime.mjs');
  await build({
    absWorkingDir: repo,
    entryPoints: ['runtime/index.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    // esbuild and amaro stay external packages, loaded from node_modules as in the CLI bundle
    packages: 'external',
    banner: {
      js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);",
    },
  });
  return outfile;
}
