// Contender: a fresh isolated-vm Isolate per run (a separate V8 heap in-process). isolated-vm is a native addon
// that needs a C++ toolchain; the bench installs it into .cache/bench-contenders, never as a project dependency.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lineBufferSource } from '../lib/vm-prelude.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CONTENDER_CACHE = path.join(repo, '.cache', 'bench-contenders');
// 5.x supports Node ≥ 18; 6.x and later need Node ≥ 22
const SPEC = process.versions.node.split('.')[0] >= 22 ? 'isolated-vm@6' : 'isolated-vm@5';

function load() {
  const require = createRequire(path.join(CONTENDER_CACHE, 'package.json'));
  return require('isolated-vm');
}

// Installs (building from source when no prebuilt binary is reachable) once; later runs reuse the cache.
export function ensureIsolatedVm({ install = true, log = () => undefined } = {}) {
  try {
    return { ok: true, ivm: load() };
  } catch {
    // not installed yet, or built for another Node
  }
  if (!install)
    return {
      ok: false,
      note: 'isolated-vm not installed (run without --skip-install to build it into .cache/bench-contenders)',
    };
  fs.mkdirSync(CONTENDER_CACHE, { recursive: true });
  if (!fs.existsSync(path.join(CONTENDER_CACHE, 'package.json')))
    fs.writeFileSync(path.join(CONTENDER_CACHE, 'package.json'), '{ "private": true }\n');
  log(`installing ${SPEC} into ${path.relative(repo, CONTENDER_CACHE)} (builds from source; a few minutes, once)…`);
  const started = Date.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', CONTENDER_CACHE, SPEC], {
    encoding: 'utf8',
    timeout: 15 * 60_000,
    cwd: CONTENDER_CACHE,
  });
  if (r.status !== 0) {
    const tail = `${r.stderr ?? ''}${r.stdout ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    return {
      ok: false,
      note: `isolated-vm did not install/build here (${r.error?.message ?? `npm exit ${r.status}`}): ${tail.slice(0, 300)}`,
    };
  }
  try {
    const ivm = load();
    log(`isolated-vm ready after ${Math.round((Date.now() - started) / 1000)} s`);
    return { ok: true, ivm };
  } catch (error) {
    return { ok: false, note: `isolated-vm installed but does not load: ${error.message.split('\n')[0]}` };
  }
}
export function isolatedVmContender({ install = false } = {}) {
  let ivm;
  return {
    id: 'isolated-vm',
    label: 'isolated-vm Isolate per run',
    family: 'in-process',
    dialect: 'js',
    floor: 'node',
    async init() {
      const found = ensureIsolatedVm({ install });
      if (!found.ok) return found;
      ivm = found.ivm;
      return { ok: true };
    },
    async run(workload, bindings) {
      const started = performance.now();
      const isolate = new ivm.Isolate({ memoryLimit: 512 });
      let logChars = 0;
      let outcome;
      try {
        const context = await isolate.createContext();
        const jail = context.global;
        await jail.set(
          '__call',
          new ivm.Reference(async (name, argsJson) =>
            JSON.stringify((await bindings[name](JSON.parse(argsJson))) ?? null),
          ),
        );
        await jail.set('__emit', new ivm.Reference((text) => (logChars += text.length)));
        const names = JSON.stringify(Object.keys(bindings));
        const source = `(async () => {
          const tools = Object.create(null);
          for (const name of ${names}) tools[name] = async (args) => JSON.parse(await __call.apply(undefined, [name, JSON.stringify(args === undefined ? null : args)], { result: { promise: true } }));
          const emitLine = (text) => __emit.applySync(undefined, [text]);
          ${lineBufferSource('emitLine')}
          const value = await (async () => {\n${workload.program('js')}\n})();
          flush();
          return JSON.stringify(value === undefined ? null : value);
        })()`;
        const script = await isolate.compileScript(source, { filename: 'program.js' });
        const text = await script.run(context, { promise: true, copy: true });
        outcome = { ok: true, value: JSON.parse(text) };
      } catch (error) {
        outcome = { ok: false, error: String(error?.message ?? error) };
      } finally {
        isolate.dispose();
      }
      return { ...outcome, logChars, wallMs: performance.now() - started };
    },
    async dispose() {},
  };
}
