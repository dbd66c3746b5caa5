import type {
  Language,
  Runtime,
  RuntimeOptions,
  RuntimeProvider,
  Session,
  SessionOutcome,
  SessionRunRequest,
} from '../../runtime/index.js';
import type { Logger } from '../log/logger.js';
import type { RuntimePaths } from './cell-job.js';

interface Entry {
  runtime: Runtime;
  active: number;
}

export interface RuntimePoolOptions {
  create: (options: RuntimeOptions) => Runtime;
  log: Logger;
}

// One runtime per language and interpreter path, shared by every notebook's session; when a path changes, the old
// runtime is disposed once its runs end.
export class RuntimePool {
  readonly #entries = new Map<string, Entry>();
  readonly #options: RuntimePoolOptions;
  readonly #current = new Map<string, string>();
  // per session owner and language, the entry its latest run was approved for (read by its provider)
  readonly #chosen = new WeakMap<object, Map<Language, Entry>>();
  #disposed = false;

  constructor(options: RuntimePoolOptions) {
    this.#options = options;
  }

  // The provider a session of `owner` (a notebook) is created with: the runtime its last run was approved for.
  providerFor(owner: object): RuntimeProvider {
    return (language) => {
      const chosen = this.#chosen.get(owner)?.get(language);
      if (chosen !== undefined && [...this.#entries.values()].includes(chosen)) return chosen.runtime;
      // not run yet (or its runtime was released): the language's current runtime, else the default interpreter's
      const current = this.#entries.get(this.#current.get(language) ?? '');
      return (current ?? this.#entryFor(language, {})).runtime;
    };
  }

  // Runs `request` in `owner`'s session on the runtime for the interpreter paths approved for this run.
  async run(owner: object, session: Session, request: SessionRunRequest, paths: RuntimePaths): Promise<SessionOutcome> {
    const entry = this.#entryFor(request.language, paths);
    const chosen = this.#chosen.get(owner) ?? new Map<Language, Entry>();
    chosen.set(request.language, entry);
    this.#chosen.set(owner, chosen);
    entry.active++;
    try {
      return await session.run(request);
    } finally {
      entry.active--;
      this.#sweep();
    }
  }

  // Stops every runtime (and with it every running cell's process).
  async dispose(): Promise<void> {
    this.#disposed = true;
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(all.map((e) => e.runtime.dispose()));
  }

  #entryFor(language: Language, paths: RuntimePaths): Entry {
    if (this.#disposed) throw new Error('the runtime pool is disposed');
    const interpreter = language === 'python' ? paths.pythonPath : paths.nodePath;
    const key = JSON.stringify([language, interpreter ?? null]);
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const options: RuntimeOptions = {};
      if (interpreter !== undefined) options[language === 'python' ? 'pythonPath' : 'nodePath'] = interpreter;
      entry = { runtime: this.#options.create(options), active: 0 };
      this.#entries.set(key, entry);
      this.#options.log.info(`${language} runtime created (interpreter: ${interpreter ?? 'default'})`);
    }
    this.#current.set(language, key);
    this.#sweep();
    return entry;
  }

  // idle runtimes for paths no longer in use are released
  #sweep(): void {
    for (const [key, entry] of this.#entries) {
      if ([...this.#current.values()].includes(key) || entry.active > 0) continue;
      this.#entries.delete(key);
      void entry.runtime.dispose().catch((error: unknown) => this.#options.log.warn('runtime dispose failed', error));
    }
  }
}
