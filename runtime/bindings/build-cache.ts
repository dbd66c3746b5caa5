import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicallySync } from '../files/atomic-write.js';
import { makeDirsSync } from '../files/make-dirs.js';

// A bindings module's bundle, kept between bindings hosts: a new host imports it without starting esbuild (the
// VSIX's esbuild-wasm costs ~0.8 s of CPU per start). A bundle is reused only while every file it was built from,
// every tsconfig/jsconfig/package.json esbuild may have read beside or above them, and the listing of those files'
// folders (a new file can shadow an import) are as they were; anything else is a miss and a fresh build.

const FORMAT = 1;
// slots kept: the least recently used beyond this go, so a folder of many throwaway modules stays small
const MAX_SLOTS = 64;
// leftovers of a process that died mid-write
const STALE_SCRATCH_MS = 60 * 60 * 1000;
// config files esbuild looks for from each bundled file's folder up to the root
const CONFIG_FILES = ['tsconfig.json', 'jsconfig.json', 'package.json'];

const FactSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('file'), path: z.string(), sha256: z.string().nullable() }),
  z.object({ kind: z.literal('dir'), path: z.string(), mtimeMs: z.number().nullable() }),
]);
type Fact = z.infer<typeof FactSchema>;
const EntrySchema = z.object({ format: z.literal(FORMAT), codeSha256: z.string(), facts: z.array(FactSchema) });

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

function fileHash(file: string): string | null {
  try {
    return sha256(fs.readFileSync(file));
  } catch {
    return null;
  }
}

function dirTime(dir: string): number | null {
  try {
    return fs.statSync(dir).mtimeMs;
  } catch {
    return null;
  }
}

function currentFact(fact: Fact): Fact {
  return fact.kind === 'file' ? { ...fact, sha256: fileHash(fact.path) } : { ...fact, mtimeMs: dirTime(fact.path) };
}

// What a bundle built from these files depends on, as observed now.
export function observe(inputs: readonly string[]): Fact[] {
  const facts = new Map<string, Fact>();
  const add = (fact: Fact): void => {
    const id = `${fact.kind}:${fact.path}`;
    if (!facts.has(id)) facts.set(id, currentFact(fact));
  };
  for (const input of inputs) {
    add({ kind: 'file', path: input, sha256: null });
    add({ kind: 'dir', path: path.dirname(input), mtimeMs: null });
    for (let dir = path.dirname(input); ; dir = path.dirname(dir)) {
      for (const name of CONFIG_FILES) add({ kind: 'file', path: path.join(dir, name), sha256: null });
      if (path.dirname(dir) === dir) break;
    }
  }
  return [...facts.values()];
}

// The cache folder: PTC_BINDINGS_CACHE (a path, or "off"), else the user's cache dir. Used only when it is a real
// folder of this user's that nobody else can write, since what it holds is run as code. `kind` names another cache's
// variable and folder (the engines').
export function cacheFolder(
  env: NodeJS.ProcessEnv = process.env,
  kind: { setting: string; name: string } = { setting: 'PTC_BINDINGS_CACHE', name: 'bindings' },
): string | undefined {
  const setting = env[kind.setting];
  if (setting === 'off') return undefined;
  const base =
    env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(os.homedir(), '.cache');
  const dir =
    setting !== undefined && setting.length > 0 ? path.resolve(setting) : path.join(base, 'ptc-playground', kind.name);
  try {
    makeDirsSync(dir, { mode: 0o700 });
    const stat = fs.lstatSync(dir);
    const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    return stat.isDirectory() && mine && (stat.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

export interface BuildCache {
  // where the bundle is kept
  readonly bundle: string;
  // the cached bundle's path when it is still valid
  lookup(): string | undefined;
  // where a fresh build writes its bundle (the same folder, so the source map's relative paths hold later)
  scratchFile(): string;
  // keeps a fresh build's bundle and what it was built from; false when an input changed since the build began
  store(options: { code: string; inputs: readonly string[]; startedMs: number }): boolean;
}

// The cache slot of one entry file under one esbuild version, in `folder`.
export function buildCache(options: { folder: string; entry: string; esbuildVersion: string }): BuildCache {
  const key = sha256(JSON.stringify([FORMAT, options.entry, options.esbuildVersion])).slice(0, 32);
  const bundle = path.join(options.folder, `${key}.mjs`);
  const record = path.join(options.folder, `${key}.json`);
  return {
    bundle,
    lookup() {
      try {
        const entry = EntrySchema.safeParse(JSON.parse(fs.readFileSync(record, 'utf8')));
        if (!entry.success || fileHash(bundle) !== entry.data.codeSha256) return undefined;
        if (!entry.data.facts.every((fact) => JSON.stringify(currentFact(fact)) === JSON.stringify(fact)))
          return undefined;
        // a hit marks the slot as recently used for prune()
        const now = new Date();
        fs.utimesSync(record, now, now);
        return bundle;
      } catch {
        return undefined;
      }
    },
    scratchFile: () => path.join(options.folder, `${key}.${randomBytes(6).toString('hex')}.build.mjs`),
    store({ code, inputs, startedMs }) {
      // an input written since the build began may not be what esbuild read: such a bundle is not kept
      const changed = inputs.some((input) => {
        try {
          return fs.statSync(input).mtimeMs >= startedMs - 1;
        } catch {
          return true;
        }
      });
      if (changed) return false;
      writeFileAtomicallySync(bundle, code, { mode: 0o600 });
      writeFileAtomicallySync(
        record,
        `${JSON.stringify({ format: FORMAT, codeSha256: sha256(code), facts: observe(inputs) })}\n`,
        { mode: 0o600 },
      );
      prune(options.folder);
      return true;
    },
  };
}

// Drops the least recently used slots beyond MAX_SLOTS and scratch files a dead process left; never fails a build.
function prune(folder: string): void {
  try {
    const now = Date.now();
    const slots: { key: string; usedMs: number }[] = [];
    for (const name of fs.readdirSync(folder)) {
      const file = path.join(folder, name);
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat === undefined) continue;
      if (/\.(tmp|build\.mjs)$/.test(name)) {
        if (now - stat.mtimeMs > STALE_SCRATCH_MS) fs.rmSync(file, { force: true });
      } else if (name.endsWith('.json')) slots.push({ key: name.slice(0, -'.json'.length), usedMs: stat.mtimeMs });
    }
    slots.sort((a, b) => b.usedMs - a.usedMs);
    for (const { key } of slots.slice(MAX_SLOTS)) {
      fs.rmSync(path.join(folder, `${key}.json`), { force: true });
      fs.rmSync(path.join(folder, `${key}.mjs`), { force: true });
    }
  } catch {
    // a folder another process is pruning at the same time: its own pass finishes the job
  }
}
