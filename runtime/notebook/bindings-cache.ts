import fs from 'node:fs/promises';
import { BindingsModuleError, type BindingsModule } from '../bindings/module-format.js';
import { loadBindingsModule } from '../bindings/module-loader.js';

export type BindingsLoad =
  | { ok: true; module: BindingsModule; path: string; generation: number }
  | { ok: false; path: string; message: string };

type Loader = (file: string) => Promise<BindingsModule>;

interface Entry {
  stamp: string;
  load: Promise<BindingsLoad>;
}

// Loads bindings modules once per version of the file: a changed file (or an explicit invalidate) loads afresh.
export class BindingsCache {
  readonly #entries = new Map<string, Entry>();
  readonly #loader: Loader;
  #generation = 0;

  constructor(loader: Loader = loadBindingsModule) {
    this.#loader = loader;
  }

  // Never rejects: a missing or broken module is `{ ok: false, message }` naming the problem.
  async load(file: string): Promise<BindingsLoad> {
    const stamp = await fileStamp(file);
    if (stamp === undefined) {
      this.#entries.delete(file);
      return { ok: false, path: file, message: `bindings module not found: ${file}` };
    }
    const cached = this.#entries.get(file);
    if (cached !== undefined && cached.stamp === stamp) return cached.load;
    const generation = ++this.#generation;
    const load = this.#loader(file).then(
      (module): BindingsLoad => ({ ok: true, module, path: file, generation }),
      (error: unknown): BindingsLoad => ({ ok: false, path: file, message: describeLoadError(file, error) }),
    );
    this.#entries.set(file, { stamp, load });
    return load;
  }

  // Forgets one module (or all), e.g. when a file watcher saw a change the stamp cannot (an imported helper).
  invalidate(file?: string): void {
    if (file === undefined) this.#entries.clear();
    else this.#entries.delete(file);
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
