// Bundles the extension's browser entry (vscode.dev, github.dev): one CommonJS file for a web worker, `vscode` left
// to the editor, with the run workers (runtime/wasm/web/run-worker.ts: QuickJS in WebAssembly; pyodide-worker.ts:
// Pyodide's loader and the guest runner's Python sources; one worker per run) and the bindings worker
// (runtime/bindings-host/web/bindings-worker.ts: a code bindings module's handlers) built first and embedded as text.
// Pyodide's own files (~12 MB) are not embedded: the web extension reads them from dist/node_modules/pyodide, the
// folder the VSIX already ships for the desktop's pyodide engine. No Node API may reach either: `runtime/index.js`
// resolves to the browser-safe `runtime/browser.ts`, the few Node modules the runtime's Node-free floors name resolve
// to the stand-ins in extension/web/, and any other `node:` import fails the build by name instead of breaking in the
// browser.
import { build as esbuild } from 'esbuild';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zodEnglishOnly } from './esbuild-zod-english.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_EXTENSION_BUNDLE = 'dist/web-extension.cjs';
const web = (file) => path.join(root, 'extension', 'web', file);

// Where front-end and runtime code reaches past the browser: the runtime's full surface, and the Node modules whose
// little use by Node-free floors has a stand-in (util for log formatting and amaro, buffer for amaro, path for the
// run request's cwd check, events for the dispatcher's listener limit).
function browserRules(util) {
  return {
    name: 'ptc-browser-only',
    setup(build) {
      build.onResolve({ filter: /(^|\/)runtime\/index\.js$/ }, () => ({
        path: path.join(root, 'runtime', 'browser.ts'),
      }));
      build.onResolve({ filter: /^(node:)?util$/ }, () => ({ path: util }));
      build.onResolve({ filter: /^node:buffer$/ }, () => ({ path: web('node-buffer.ts') }));
      build.onResolve({ filter: /^node:path$/ }, () => ({ path: web('node-path.ts') }));
      build.onResolve({ filter: /^node:events$/ }, () => ({ path: web('node-events.ts') }));
      build.onResolve({ filter: /^node:/ }, (args) => ({
        errors: [{ text: `${args.path} (imported by ${path.relative(root, args.importer)}) cannot run in a browser` }],
      }));
    },
  };
}

export const browserOnly = browserRules(web('node-util.ts'));

const shared = {
  absWorkingDir: root,
  bundle: true,
  platform: 'browser',
  target: 'es2022',
  // the runtime's JSON size accounting reads Buffer, which browsers lack
  inject: [web('buffer.ts')],
  logLevel: 'silent',
};

// The run workers' sources, embedded in the extension by name (`ptc:run-worker`, `ptc:pyodide-worker`): a worker
// started from a blob: URL is same-origin wherever the extension's own files are served from.
function embedWorkers(sources) {
  return {
    name: 'ptc-run-worker-source',
    setup(build) {
      build.onResolve({ filter: /^ptc:[a-z-]+-worker$/ }, (args) => ({
        path: args.path.slice('ptc:'.length),
        namespace: 'ptc-run-worker',
      }));
      build.onLoad({ filter: /.*/, namespace: 'ptc-run-worker' }, (args) => ({
        contents: `export default ${JSON.stringify(sources[args.path] ?? '')};`,
        loader: 'js',
      }));
    },
  };
}

// Pyodide's loader names Node modules in branches only Node takes (it checks process.versions.node first): in a
// browser bundle they are empty.
const pyodideNodeBranches = {
  name: 'ptc-pyodide-node-branches',
  setup(build) {
    build.onResolve({ filter: /^(node:|ws$)/ }, (args) =>
      /[\\/]node_modules[\\/]pyodide[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'ptc-empty' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'ptc-empty' }, () => ({ contents: 'export default {};', loader: 'js' }));
  },
};

// `outfile`: another place for the bundle (a suite that must not race another one rebuilding the shipped file)
export default async function build({ production = false, outfile = WEB_EXTENSION_BUNDLE } = {}) {
  const worker = await esbuild({
    ...shared,
    entryPoints: ['runtime/wasm/web/run-worker.ts'],
    format: 'iife',
    // QuickJS's Emscripten loader requires fs only when it runs under Node (it checks process.versions.node first)
    external: ['fs'],
    plugins: [zodEnglishOnly, browserRules(web('worker-node-util.ts'))],
    minify: production,
    legalComments: production ? 'none' : 'eof',
    write: false,
  });
  const workerSource = worker.outputFiles[0]?.text ?? '';
  const pyodideWorker = await esbuild({
    ...shared,
    entryPoints: ['runtime/wasm/web/pyodide-worker.ts'],
    format: 'iife',
    // the guest runner's modules (python/), as text
    loader: { '.py': 'text' },
    plugins: [zodEnglishOnly, pyodideNodeBranches, browserRules(web('worker-node-util.ts'))],
    minify: production,
    legalComments: production ? 'none' : 'eof',
    write: false,
  });
  const pyodideSource = pyodideWorker.outputFiles[0]?.text ?? '';
  // the bindings worker: a code bindings module's handlers, in a worker of their own (its import() is left to the
  // browser: the module's own text, from a blob: URL)
  const bindingsWorker = await esbuild({
    ...shared,
    entryPoints: ['runtime/bindings-host/web/bindings-worker.ts'],
    format: 'iife',
    plugins: [zodEnglishOnly, browserRules(web('worker-node-util.ts'))],
    minify: production,
    legalComments: production ? 'none' : 'eof',
    write: false,
  });
  const bindingsSource = bindingsWorker.outputFiles[0]?.text ?? '';
  const result = await esbuild({
    ...shared,
    entryPoints: ['extension/web/web-extension.ts'],
    outfile,
    format: 'cjs',
    external: ['vscode'],
    plugins: [
      zodEnglishOnly,
      browserOnly,
      embedWorkers({ 'run-worker': workerSource, 'pyodide-worker': pyodideSource, 'bindings-worker': bindingsSource }),
    ],
    minify: production,
    sourcemap: production ? false : 'linked',
    legalComments: production ? 'none' : 'eof',
  });
  for (const warning of [...worker.warnings, ...pyodideWorker.warnings, ...bindingsWorker.warnings, ...result.warnings])
    process.stderr.write(`build-web-extension: ${warning.text}\n`);
  const size = (await stat(path.resolve(root, outfile))).size;
  process.stdout.write(
    `web extension: ${path.basename(outfile)} ${(size / 1024).toFixed(0)} KiB (run worker ${(workerSource.length / 1024).toFixed(0)} KiB, pyodide worker ${(pyodideSource.length / 1024).toFixed(0)} KiB and bindings worker ${(bindingsSource.length / 1024).toFixed(0)} KiB inside)\n`,
  );
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build({ production: process.argv.includes('--production') });
}
