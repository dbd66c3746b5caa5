import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild-wasm';
import { locateAsset } from '../assets/locate.js';
import { buildCache, cacheFolder } from './build-cache.js';
import { errorMessage } from '../output/error-message.js';
import { PUBLIC_SOURCE, PUBLIC_SPECIFIER } from './public-specifier.js';

const builtins = new Set(builtinModules);

// Relative imports are bundled; npm packages stay external at their resolved absolute location so they load natively.
function resolverPlugin(): Plugin {
  return {
    name: 'ptc-bindings-resolver',
    setup(build) {
      build.onResolve({ filter: /^ptc-playground\/bindings$/ }, () => ({
        path: PUBLIC_SPECIFIER,
        namespace: 'ptc-public',
      }));
      build.onLoad({ filter: /.*/, namespace: 'ptc-public' }, () => ({ contents: PUBLIC_SOURCE, loader: 'js' }));
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'ptc-inner' || path.isAbsolute(args.path)) return undefined;
        if (args.path.startsWith('node:') || builtins.has(args.path) || builtins.has(args.path.split('/')[0] ?? ''))
          return { path: args.path, external: true };
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: 'ptc-inner',
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        // require() wants a path, import wants a URL
        return {
          path: args.kind === 'require-call' ? resolved.path : pathToFileURL(resolved.path).href,
          external: true,
        };
      });
    },
  };
}

type Esbuild = typeof import('esbuild-wasm');

// Native esbuild's JS API, where this checkout or npm install has it with its platform binary at esbuild-wasm's
// version.
function nativeEsbuild(version: string | undefined): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('esbuild/package.json'));
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    if (manifest.version !== version) return undefined;
    require.resolve(`@esbuild/${process.platform}-${process.arch}/package.json`, { paths: [dir] });
    return pathToFileURL(path.join(dir, 'lib', 'main.js')).href;
  } catch {
    return undefined;
  }
}

// Which esbuild bundles bindings modules, imported at run time so it stays out of the CLI and extension bundles. The
// VSIX ships only esbuild-wasm (WebAssembly: one VSIX for every platform; its service costs ~1 s of CPU to start), in
// dist/node_modules, patched to start with this process's executable and V8's baseline tier (build-extension.mjs).
// The CLI run from a checkout or an npm install with devDependencies keeps native esbuild's ~0.2 s start at the same
// version. PTC_BINDINGS_ESBUILD=wasm forces WebAssembly (tests of what the VSIX runs).
function esbuildChoice(): { specifier: string; version: string } {
  const wasm = locateAsset('dist/node_modules/esbuild-wasm/lib/main.js');
  let version = 'unknown';
  try {
    const manifest =
      wasm === undefined
        ? createRequire(import.meta.url).resolve('esbuild-wasm/package.json')
        : path.join(wasm, '..', '..', 'package.json');
    version = String((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: unknown }).version);
  } catch {
    // unknown: no native esbuild matches it, and the build cache keys on it as it is
  }
  const native = process.env.PTC_BINDINGS_ESBUILD === 'wasm' ? undefined : nativeEsbuild(version);
  return { specifier: native ?? (wasm === undefined ? 'esbuild-wasm' : pathToFileURL(wasm).href), version };
}

// Where a bindings module's bundle came from: the build cache (no esbuild started) or a fresh build.
export type BundleSource = 'cache' | 'build';

// each import of a bundle file gets a module instance of its own, as a fresh temp file did
let generation = 0;
const importFresh = (file: string): Promise<unknown> => import(`${pathToFileURL(file).href}?ptc=${++generation}`);

// Bundles the module (any of .ts/.mts/.cts/.js/.mjs/.cjs), or takes its still-valid bundle from the build cache,
// and imports it afresh.
export async function importBindingsFile(file: string): Promise<{ module: unknown; source: BundleSource }> {
  const choice = esbuildChoice();
  const folder = cacheFolder();
  const cache = folder === undefined ? undefined : buildCache({ folder, entry: file, esbuildVersion: choice.version });
  const cached = cache?.lookup();
  if (cached !== undefined) return { module: await importFresh(cached), source: 'cache' };
  // without a cache, a private temp dir; with one, a scratch file beside the kept bundle
  const dir = cache === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bindings-')) : undefined;
  const out =
    cache !== undefined
      ? cache.scratchFile()
      : path.join(dir ?? os.tmpdir(), `${path.basename(file).replace(/\.[^.]+$/, '')}.mjs`);
  try {
    const startedMs = Date.now();
    const { build } = (await import(choice.specifier)) as Esbuild;
    const result = await build({
      entryPoints: [file],
      outfile: out,
      write: false,
      metafile: true,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      sourcemap: 'inline',
      plugins: [resolverPlugin()],
      banner: {
        js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);",
      },
    });
    const code = result.outputFiles[0]?.text ?? '';
    // files bundled from disk (esbuild names them relative to the working directory); plugin namespaces are not files
    const inputs = Object.keys(result.metafile.inputs)
      .filter((input) => !/^[a-z-]+:/.test(input))
      .map((input) => path.resolve(input));
    if (cache !== undefined && cache.store({ code, inputs, startedMs }))
      return { module: await importFresh(cache.bundle), source: 'build' };
    fs.writeFileSync(out, code, { mode: 0o600 });
    return { module: await importFresh(out), source: 'build' };
  } catch (error) {
    throw new Error(describeBuildError(error), { cause: error });
  } finally {
    fs.rmSync(dir ?? out, { recursive: true, force: true });
  }
}

// esbuild failures carry located messages; show the first few as `file:line:col: text`, the file absolute (esbuild
// names it relative to the working directory, which is rarely the reader's) so editors and terminals can open it.
function describeBuildError(error: unknown): string {
  const errors = (
    error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
  ).errors;
  if (!Array.isArray(errors) || errors.length === 0) return errorMessage(error);
  return errors
    .slice(0, 5)
    .map((e) =>
      e.location ? `${path.resolve(e.location.file)}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text,
    )
    .join('\n');
}
