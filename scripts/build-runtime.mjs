// Bundles the runtime's own executables: the Node child bootstrap, the bindings host and the `ptc` CLI.
import { build as esbuild } from 'esbuild';
import { zodEnglishOnly } from './esbuild-zod-english.mjs';

export default async function build({ production }) {
  const common = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    sourcemap: production ? false : 'inline',
    minify: production,
    logLevel: 'warning',
    plugins: [zodEnglishOnly],
  };
  await Promise.all([
    esbuild({
      ...common,
      entryPoints: ['runtime/typescript/child/bootstrap.ts'],
      outfile: 'dist/runtime/node-child.cjs',
      format: 'cjs',
      sourcemap: false,
    }),
    // the quickjs engine's child: QuickJS's wasm is embedded in this one file (the singlefile variant), so the sandbox
    // and Node's permission model let it read nothing beyond what the Node child reads
    esbuild({
      ...common,
      entryPoints: ['runtime/wasm/quickjs/child.ts'],
      outfile: 'dist/runtime/quickjs-child.cjs',
      format: 'cjs',
      sourcemap: false,
    }),
    // the pyodide engine's child: Pyodide's loader and the guest runner's Python sources are bundled in; Pyodide's own
    // files (dist/node_modules/pyodide, build-extension.mjs) are its one folder, bound read-only into the sandbox
    esbuild({
      ...common,
      entryPoints: ['runtime/wasm/pyodide/child.ts'],
      outfile: 'dist/runtime/pyodide-child.cjs',
      format: 'cjs',
      sourcemap: false,
      loader: { '.py': 'text' },
      // Pyodide's loader reaches `ws` only for Emscripten sockets, which the engine refuses
      // (runtime/wasm/pyodide/guest.ts)
      external: ['ws'],
    }),
    esbuild({
      ...common,
      entryPoints: ['runtime/bindings-host/host/main.ts'],
      outfile: 'dist/runtime/bindings-host.mjs',
      format: 'esm',
      banner: {
        js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);",
      },
    }),
    esbuild({
      ...common,
      entryPoints: ['runtime/cli/main.ts'],
      outfile: 'dist/cli.mjs',
      format: 'esm',
      // every `ptc` invocation compiles this file before it can start a run: amaro (3.4 MB of wasm, loaded only when a
      // TypeScript program is stripped) comes from node_modules at that moment, and the source map sits beside it
      external: ['amaro'],
      sourcemap: production ? false : 'linked',
      banner: {
        js: "#!/usr/bin/env node\nimport { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);",
      },
    }),
  ]);
}
