// Bundles the extension's browser entry (vscode.dev, github.dev): one CommonJS file for a web worker, `vscode` left
// to the editor. No Node API may reach it: `runtime/index.js` resolves to the browser-safe `runtime/browser.ts`, and
// any `node:` import fails the build by name instead of breaking in the browser.
import { build as esbuild } from 'esbuild';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_EXTENSION_BUNDLE = 'dist/web-extension.cjs';

// The two places front-end code reaches past the browser: the runtime's full surface and Node's util (log formatting).
export const browserOnly = {
  name: 'ptc-browser-only',
  setup(build) {
    build.onResolve({ filter: /(^|\/)runtime\/index\.js$/ }, () => ({
      path: path.join(root, 'runtime', 'browser.ts'),
    }));
    build.onResolve({ filter: /^node:util$/ }, () => ({ path: path.join(root, 'extension', 'web', 'node-util.ts') }));
    build.onResolve({ filter: /^node:/ }, (args) => ({
      errors: [{ text: `${args.path} (imported by ${path.relative(root, args.importer)}) cannot run in a browser` }],
    }));
  },
};

export default async function build({ production = false } = {}) {
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: ['extension/web/web-extension.ts'],
    outfile: WEB_EXTENSION_BUNDLE,
    bundle: true,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    external: ['vscode'],
    plugins: [browserOnly],
    // the runtime's JSON size accounting reads Buffer, which browsers lack
    inject: [path.join(root, 'extension', 'web', 'buffer.ts')],
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: production ? 'none' : 'eof',
    logLevel: 'silent',
  });
  for (const warning of result.warnings) process.stderr.write(`build-web-extension: ${warning.text}\n`);
  const size = (await stat(path.join(root, WEB_EXTENSION_BUNDLE))).size;
  process.stdout.write(`web extension: ${path.basename(WEB_EXTENSION_BUNDLE)} ${(size / 1024).toFixed(0)} KiB\n`);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
