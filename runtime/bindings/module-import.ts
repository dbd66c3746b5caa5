import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild-wasm';
import { locateAsset } from '../assets/locate.js';

// The specifier authors import `defineBindings` from; served from memory so modules need no install.
export const PUBLIC_SPECIFIER = 'ptc-playground/bindings';
const PUBLIC_SOURCE = 'export function defineBindings(bindings) { return bindings; }\n';

const builtins = new Set(builtinModules);

// Relative imports are bundled; npm packages stay external at their resolved absolute location so they load natively.
function resolverPlugin(): Plugin {
  return {
    name: 'ptc-bindings-resolver',
    setup(build) {
      build.onResolve({ filter: /^ptc-playground\/bindings$/ }, () => ({ path: PUBLIC_SPECIFIER, namespace: 'ptc-public' }));
      build.onLoad({ filter: /.*/, namespace: 'ptc-public' }, () => ({ contents: PUBLIC_SOURCE, loader: 'js' }));
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === 'ptc-inner' || path.isAbsolute(args.path)) return undefined;
        if (args.path.startsWith('node:') || builtins.has(args.path) || builtins.has(args.path.split('/')[0] ?? '')) return { path: args.path, external: true };
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'ptc-inner' });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        // require() wants a path, import wants a URL
        return { path: args.kind === 'require-call' ? resolved.path : pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
}

type Esbuild = typeof import('esbuild-wasm');

// Native esbuild's JS API, where this checkout or npm install has it with its platform binary at esbuild-wasm's version.
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
function esbuildSpecifier(): string {
  const wasm = locateAsset('dist/node_modules/esbuild-wasm/lib/main.js');
  if (process.env.PTC_BINDINGS_ESBUILD !== 'wasm') {
    let version: string | undefined;
    try {
      const manifest = wasm === undefined ? createRequire(import.meta.url).resolve('esbuild-wasm/package.json') : path.join(wasm, '..', '..', 'package.json');
      version = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version;
    } catch {
      version = undefined;
    }
    const native = nativeEsbuild(version);
    if (native !== undefined) return native;
  }
  return wasm === undefined ? 'esbuild-wasm' : pathToFileURL(wasm).href;
}

// Bundles the module (any of .ts/.mts/.cts/.js/.mjs/.cjs) to a private temp file and imports it afresh.
export async function importBindingsFile(file: string): Promise<unknown> {
  const { build } = (await import(esbuildSpecifier())) as Esbuild;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bindings-'));
  const out = path.join(dir, `${path.basename(file).replace(/\.[^.]+$/, '')}.mjs`);
  try {
    await build({
      entryPoints: [file],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
      sourcemap: 'inline',
      plugins: [resolverPlugin()],
      banner: { js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);" },
    });
    return await import(pathToFileURL(out).href);
  } catch (error) {
    throw new Error(describeBuildError(error), { cause: error });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// esbuild failures carry located messages; show the first few as `file:line:col: text`.
function describeBuildError(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return error instanceof Error ? error.message : String(error);
  return errors
    .slice(0, 5)
    .map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text))
    .join('\n');
}
