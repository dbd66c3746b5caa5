import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import { cacheFolder } from '../../../runtime/bindings/build-cache.js';
import { importBindingsFile } from '../../../runtime/bindings/module-import.js';

// The bindings build cache with real esbuild and real files: a hit starts no esbuild, and every change that could
// make a bundle differ (an input's content, a shadowing file, a tsconfig above, a corrupt slot) is a fresh build.
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-build-cache-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let project = '';
let cache = '';

beforeEach((ctx) => {
  const dir = path.join(root, ctx.task.id);
  project = path.join(dir, 'project');
  cache = path.join(dir, 'cache');
  fs.mkdirSync(path.join(project, 'lib'), { recursive: true });
  fs.mkdirSync(cache, { mode: 0o700 });
  process.env.PTC_BINDINGS_CACHE = cache;
  write('lib/util.ts', "export const word: string = 'one';\n");
  write('bindings.ts', "import { word } from './lib/util';\nexport default { word };\n");
});
afterAll(() => delete process.env.PTC_BINDINGS_CACHE);

// writes a file as an editor would, then moves its clock back so the next build may keep what it bundled
function write(name: string, text: string): void {
  const file = path.join(project, name);
  fs.writeFileSync(file, text);
  const past = new Date(Date.now() - 5000);
  fs.utimesSync(file, past, past);
}

async function load(): Promise<{ word: unknown; source: string }> {
  const { module, source } = await importBindingsFile(path.join(project, 'bindings.ts'));
  return { word: (module as { default: { word: unknown } }).default.word, source };
}

describe('bindings build cache', () => {
  test('the second load of an unchanged module comes from the cache, as a fresh module instance', async () => {
    expect(await load()).toEqual({ word: 'one', source: 'build' });
    expect(await load()).toEqual({ word: 'one', source: 'cache' });
    const a = await importBindingsFile(path.join(project, 'bindings.ts'));
    const b = await importBindingsFile(path.join(project, 'bindings.ts'));
    expect(a.module).not.toBe(b.module);
    expect(fs.readdirSync(cache).sort()).toHaveLength(2);
  });

  test('an edited import, a file that shadows one, or a tsconfig above makes a fresh build', async () => {
    await load();
    write('lib/util.ts', "export const word: string = 'two';\n");
    expect(await load()).toEqual({ word: 'two', source: 'build' });
    expect((await load()).source).toBe('cache');
    // lib/util.tsx comes before lib/util.ts in esbuild's resolution order
    write('lib/util.tsx', "export const word: string = 'shadow';\n");
    expect(await load()).toEqual({ word: 'shadow', source: 'build' });
    expect((await load()).source).toBe('cache');
    write('tsconfig.json', '{ "compilerOptions": { "useDefineForClassFields": false } }\n');
    expect((await load()).source).toBe('build');
    expect((await load()).source).toBe('cache');
  });

  test('a file written after its build began is not kept (it may not be what esbuild read)', async () => {
    const file = path.join(project, 'lib/util.ts');
    fs.writeFileSync(file, "export const word: string = 'fresh';\n");
    // what a write landing during the build looks like afterwards: a modification time not before the build
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    expect(await load()).toEqual({ word: 'fresh', source: 'build' });
    expect((await load()).source).toBe('build');
    expect(fs.readdirSync(cache)).toEqual([]);
  });

  test('a corrupt or tampered slot is a miss and is rebuilt, never run or a crash', async () => {
    await load();
    const [record] = fs.readdirSync(cache).filter((f) => f.endsWith('.json'));
    const bundle = path.join(cache, (record ?? '').replace(/\.json$/, '.mjs'));
    fs.writeFileSync(bundle, 'export default { word: "tampered" };\n');
    expect(await load()).toEqual({ word: 'one', source: 'build' });
    fs.writeFileSync(path.join(cache, record ?? ''), '{ not json');
    expect(await load()).toEqual({ word: 'one', source: 'build' });
    expect(await load()).toEqual({ word: 'one', source: 'cache' });
  });

  test('a build error is not cached, and the next load after the fix builds', async () => {
    write('lib/util.ts', 'export const word: string = ;\n');
    await expect(importBindingsFile(path.join(project, 'bindings.ts'))).rejects.toThrow(/util\.ts:1:\d+/);
    expect(fs.readdirSync(cache)).toEqual([]);
    write('lib/util.ts', "export const word: string = 'fixed';\n");
    expect(await load()).toEqual({ word: 'fixed', source: 'build' });
  });

  test('a cache folder others can write, or "off", is not used: every load builds', async () => {
    fs.chmodSync(cache, 0o777);
    expect(cacheFolder()).toBeUndefined();
    await load();
    expect((await load()).source).toBe('build');
    expect(fs.readdirSync(cache)).toEqual([]);
    fs.chmodSync(cache, 0o700);
    expect(cacheFolder()).toBe(cache);
    expect(cacheFolder({ PTC_BINDINGS_CACHE: 'off' })).toBeUndefined();
    const link = path.join(path.dirname(cache), 'link');
    fs.symlinkSync(cache, link);
    expect(cacheFolder({ PTC_BINDINGS_CACHE: link })).toBeUndefined();
  });
});
