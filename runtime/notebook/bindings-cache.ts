import fs from 'node:fs/promises';
import { BindingsModuleError, type BindingsModule } from '../bindings/module-format.js';
import { loadBindingsModule } from '../bindings/module-loader.js';

// A loaded module held for one use (a run, an IntelliSense query); `release` lets a stale module be disposed.
export type BindingsLease =
  { ok: true; module: BindingsModule; path: string; generation: number; release: () => void } | { ok: false; path: string; message: string };

type Loader = (file: string) => Promise<BindingsModule>;

interface Entry {
  stamp: string;
  generation: number;
  load: Promise<BindingsModule | { error: string }>;
  users: number;
  stale: boolean;
  disposed: boolean;
}

export interface BindingsCacheOptions {
  loader?: Loader;
  // told when disposing a replaced module (and its MCP servers) fails
  onDisposeError?: (file: string, error: unknown) => void;
}

// Loads each bindings module once per version of the file and keeps it (with its MCP servers) alive across runs;
// a changed file, or an explicit invalidate, loads afresh and disposes the old module once no run uses it.
export class BindingsCache {
  readonly #entries = new Map<string, Entry>();
  readonly #retired = new Set<Entry>();
  readonly #loader: Loader;
  readonly #onDisposeError: (file: string, error: unknown) => void;
  #generation = 0;
  #closed = false;

  constructor(options: BindingsCacheOptions = {}) {
    this.#loader = options.loader ?? loadBindingsModule;
    this.#onDisposeError = options.onDisposeError ?? (() => undefined);
  }

  // Never rejects: a missing or broken module is `{ ok: false, message }` naming the problem.
  async load(file: string): Promise<BindingsLease> {
    if (this.#closed) return { ok: false, path: file, message: 'the bindings cache is disposed' };
    const stamp = await fileStamp(file);
    if (stamp === undefined) {
      this.invalidate(file);
      return { ok: false, path: file, message: `bindings module not found: ${file}` };
    }
    let entry = this.#entries.get(file);
    if (entry === undefined || entry.stamp !== stamp) {
      if (entry !== undefined) this.#retire(file, entry);
      const created: Entry = { stamp, generation: ++this.#generation, load: this.#start(file), users: 0, stale: false, disposed: false };
      this.#entries.set(file, created);
      entry = created;
    }
    const current = entry;
    current.users++;
    const loaded = await current.load;
    if ('error' in loaded) {
      current.users--;
      // a failed load is retried on the next use rather than cached
      if (this.#entries.get(file) === current) this.#entries.delete(file);
      return { ok: false, path: file, message: loaded.error };
    }
    let released = false;
    return {
      ok: true,
      module: loaded,
      path: file,
      generation: current.generation,
      release: () => {
        if (released) return;
        released = true;
        current.users--;
        if (current.stale) this.#disposeWhenIdle(file, current);
      },
    };
  }

  // Forgets one module (or all): e.g. a watcher saw a change the stamp cannot see (an imported helper file).
  invalidate(file?: string): void {
    for (const [key, entry] of [...this.#entries]) {
      if (file === undefined || key === file) this.#retire(key, entry);
    }
  }

  // Disposes every module (MCP servers included), waiting for none of the runs: callers stop their runs first.
  async dispose(): Promise<void> {
    this.#closed = true;
    const all = [...this.#entries].map(([file, entry]) => ({ file, entry }));
    for (const entry of this.#retired) all.push({ file: '(retired)', entry });
    this.#entries.clear();
    this.#retired.clear();
    await Promise.all(all.map(({ file, entry }) => this.#disposeEntry(file, entry)));
  }

  #start(file: string): Promise<BindingsModule | { error: string }> {
    return this.#loader(file).then(
      (module) => module,
      (error: unknown) => ({ error: describeLoadError(file, error) }),
    );
  }

  #retire(file: string, entry: Entry): void {
    if (this.#entries.get(file) === entry) this.#entries.delete(file);
    entry.stale = true;
    this.#retired.add(entry);
    this.#disposeWhenIdle(file, entry);
  }

  #disposeWhenIdle(file: string, entry: Entry): void {
    if (entry.users > 0) return;
    this.#retired.delete(entry);
    void this.#disposeEntry(file, entry);
  }

  async #disposeEntry(file: string, entry: Entry): Promise<void> {
    if (entry.disposed) return;
    entry.disposed = true;
    const loaded = await entry.load;
    if ('error' in loaded) return;
    try {
      await loaded.dispose();
    } catch (error) {
      this.#onDisposeError(file, error);
    }
  }
}

async function fileStamp(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    return stat.isFile() ? `${stat.mtimeMs}:${stat.size}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function describeLoadError(file: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes(file)) return message;
  return error instanceof BindingsModuleError ? `bindings module ${file}: ${message}` : `bindings module ${file} failed to load: ${message}`;
}
