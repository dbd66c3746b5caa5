import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { cacheFolder } from '../../bindings/build-cache.js';
import type { NodeExecutable } from '../../typescript/node-executable.js';
import { SNAPSHOT_FILE } from './snapshot-file.js';

// A fresh interpreter from a memory snapshot instead of booting CPython and importing the runner each time
// (loadPyodide: 3–4.5 s of CPU per child here; from the snapshot about a third of it). The snapshot is the memory of an
// interpreter that imported the runner and ran nothing: every run still gets a process and an interpreter of its own,
// and the lockdown runs in each (guest.ts). It is kept in the user's cache folder beside a copy of Pyodide's files, so
// the child still reads one folder, keyed by Pyodide's version and the child bootstrap (which bundles the runner).

const FORMAT = 1;
// what the child reads from the folder (Pyodide's own files, as the build copies them)
const PYODIDE_FILES = ['package.json', 'pyodide-lock.json', 'pyodide.asm.js', 'pyodide.asm.wasm', 'python_stdlib.zip'];
const MAKE_TIMEOUT_MS = 300_000;
// snapshot folders kept (about 33 MB each where Pyodide's files cannot be hard-linked)
const KEPT_FOLDERS = 3;
const STALE_SCRATCH_MS = 60 * 60 * 1000;
const RecordSchema = z.object({ format: z.literal(FORMAT), snapshotSha256: z.string() });

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

// The engines' cache folder: PTC_ENGINE_CACHE (a path, or "off"), else ptc-playground/engines in the user's cache dir.
export function engineCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return cacheFolder(env, { setting: 'PTC_ENGINE_CACHE', name: 'engines' });
}

function snapshotKey(pyodideFolder: string, bootstrapPath: string): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(pyodideFolder, 'package.json'), 'utf8')) as {
    version?: unknown;
  };
  return sha256(JSON.stringify([FORMAT, String(version), sha256(fs.readFileSync(bootstrapPath))])).slice(0, 32);
}

// A prepared folder is used only when its snapshot is the one its record names (a torn or altered file is remade).
function validFolder(folder: string): boolean {
  try {
    const record = RecordSchema.safeParse(JSON.parse(fs.readFileSync(path.join(folder, 'record.json'), 'utf8')));
    return record.success && sha256(fs.readFileSync(path.join(folder, SNAPSHOT_FILE))) === record.data.snapshotSha256;
  } catch {
    return false;
  }
}

function makeSnapshot(node: NodeExecutable, bootstrapPath: string, folder: string): Promise<void> {
  return new Promise((resolve, reject) => {
    // the runner's own code and Pyodide's, no program: it runs outside the sandbox, like a build step
    execFile(
      node.path,
      ['--no-warnings', '--disallow-code-generation-from-strings', bootstrapPath, folder, '--make-snapshot'],
      { env: { ELECTRON_RUN_AS_NODE: '1' }, timeout: MAKE_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1 << 20 },
      (error, _stdout, stderr) =>
        error === null ? resolve() : reject(new Error(`${error.message}: ${String(stderr).slice(0, 2000)}`)),
    );
  });
}

async function prepare(options: {
  node: NodeExecutable;
  bootstrapPath: string;
  pyodideFolder: string;
  cache: string;
}): Promise<string> {
  const final = path.join(options.cache, `pyodide-${snapshotKey(options.pyodideFolder, options.bootstrapPath)}`);
  if (validFolder(final)) return final;
  // built aside and renamed into place: a reader sees a whole folder or none
  const scratch = `${final}.${randomBytes(6).toString('hex')}.tmp`;
  // readable by the sandbox's own uid once bound into it (the cache folder above stays private to this user)
  fs.mkdirSync(scratch, { mode: 0o755 });
  try {
    for (const name of PYODIDE_FILES) {
      const from = path.join(options.pyodideFolder, name);
      const to = path.join(scratch, name);
      try {
        fs.linkSync(from, to);
      } catch {
        fs.copyFileSync(from, to);
      }
    }
    await makeSnapshot(options.node, options.bootstrapPath, scratch);
    const snapshotSha256 = sha256(fs.readFileSync(path.join(scratch, SNAPSHOT_FILE)));
    fs.writeFileSync(path.join(scratch, 'record.json'), `${JSON.stringify({ format: FORMAT, snapshotSha256 })}\n`);
    fs.rmSync(final, { recursive: true, force: true });
    fs.renameSync(scratch, final);
    prune(options.cache, final);
    return final;
  } catch (error) {
    fs.rmSync(scratch, { recursive: true, force: true });
    // another process may have put a whole folder in place meanwhile
    if (validFolder(final)) return final;
    throw error;
  }
}

// Folders of other Pyodide versions and bootstraps (each rebuild of the child makes a key of its own): the most
// recently made few stay, with scratch folders a dead process left.
function prune(cache: string, keep: string): void {
  try {
    const folders = fs
      .readdirSync(cache)
      .filter((name) => name.startsWith('pyodide-'))
      .map((name) => path.join(cache, name))
      .filter((folder) => folder !== keep)
      .map((folder) => ({ folder, ms: fs.statSync(folder).mtimeMs }))
      .sort((a, b) => b.ms - a.ms);
    const now = Date.now();
    for (const [index, { folder, ms }] of folders.entries())
      if (folder.endsWith('.tmp') ? now - ms > STALE_SCRATCH_MS : index >= KEPT_FOLDERS - 1)
        fs.rmSync(folder, { recursive: true, force: true });
  } catch {
    // another process pruning at the same time finishes the job
  }
}

const prepared = new Map<string, Promise<string | undefined>>();

// The folder the pyodide child reads: the snapshot's, made once per Pyodide version and bootstrap (the first run on
// a machine waits for it), or Pyodide's own when there is no private cache folder or the snapshot cannot be made.
export function snapshotFolder(options: {
  node: NodeExecutable;
  bootstrapPath: string;
  pyodideFolder: string;
}): Promise<string> {
  const cache = engineCacheFolder();
  if (cache === undefined) return Promise.resolve(options.pyodideFolder);
  const id = JSON.stringify([options.node.path, options.bootstrapPath, options.pyodideFolder, cache]);
  let known = prepared.get(id);
  if (known === undefined) {
    known = prepare({ ...options, cache }).catch(() => undefined);
    prepared.set(id, known);
  }
  return known.then((folder) => folder ?? options.pyodideFolder);
}
