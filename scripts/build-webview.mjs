// Bundles the notebook renderer and the run inspector page: browser ES modules, CSS as text, no Node built-ins.
import { build as esbuild } from 'esbuild';
import { mkdir, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'webview');

const ENTRIES = {
  renderer: 'webview/renderer/index.ts',
  inspector: 'webview/inspector/main.ts',
};

// Fails the build if anything under webview/ pulls in a Node built-in or the vscode module.
const browserOnly = {
  name: 'browser-only',
  setup(build) {
    build.onResolve({ filter: /^(node:|vscode$)/ }, (args) => ({
      errors: [
        {
          text: `webview code must not import ${JSON.stringify(args.path)} (imported by ${path.relative(root, args.importer)})`,
        },
      ],
    }));
  },
};

export default async function build({ production = false } = {}) {
  await mkdir(outdir, { recursive: true });
  const result = await esbuild({
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, input]) => ({ in: input, out })),
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome114'],
    loader: { '.css': 'text' },
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: production ? 'none' : 'eof',
    metafile: true,
    logLevel: 'silent',
    plugins: [browserOnly],
  });
  for (const warning of result.warnings) process.stderr.write(`build-webview: ${warning.text}\n`);
  const sizes = [];
  for (const name of Object.keys(ENTRIES)) {
    const file = path.join(outdir, `${name}.js`);
    sizes.push(`${name}.js ${((await stat(file)).size / 1024).toFixed(0)} KiB`);
  }
  process.stdout.write(`webview: ${sizes.join(', ')}\n`);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
