// Bundles the runtime's own executables: the Node child bootstrap, the bindings host and the `ptc` CLI.
import { build as esbuild } from 'esbuild';

export default async function build({ production }) {
  const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: production ? false : 'inline', minify: production, logLevel: 'warning' };
  await Promise.all([
    esbuild({ ...common, entryPoints: ['runtime/typescript/child/bootstrap.ts'], outfile: 'dist/runtime/node-child.cjs', format: 'cjs', sourcemap: false }),
    esbuild({
      ...common,
      entryPoints: ['runtime/bindings-host/host/main.ts'],
      outfile: 'dist/runtime/bindings-host.mjs',
      format: 'esm',
      banner: { js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);" },
    }),
    esbuild({
      ...common,
      entryPoints: ['runtime/cli/main.ts'],
      outfile: 'dist/cli.mjs',
      format: 'esm',
      banner: {
        js: "#!/usr/bin/env node\nimport { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);",
      },
    }),
  ]);
}
