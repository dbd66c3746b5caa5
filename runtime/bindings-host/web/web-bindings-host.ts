// The browser's bindings host (vscode.dev, github.dev): one code bindings module run in a dedicated web worker of its
// own (bindings-worker.ts), supervised from the extension host as the desktop supervises its bindings host process
// (bindings-host.ts): the load is bounded, a worker whose heartbeat stops (a handler in a synchronous loop) is
// terminated after the same silence and replaced for the next run, and every call it was running fails naming
// itself. The worker's messages are hostile (worker-wire.ts). Needs nothing from Node.
import type { BindingNamespace, CallContext } from '../../api.js';
import { CallFailure } from '../../bindings/call-failure.js';
import { LIMITS } from '../../contract/limits.js';
import { decodeLossless, encodeLossless } from '../../json/lossless.js';
import type { JsonValue } from '../../protocol/json-value.js';
import type { StripResult } from '../../typescript/strip-core.js';
import { errorMessage } from '../../output/error-message.js';
// a dedicated worker, seen through the little used of it: the same view the engines' run workers get
import type { RunWorker } from '../../wasm/web/web-engine.js';
import { CHECK_MS, UNRESPONSIVE_MS } from '../limits.js';
import type { DescribedModule } from '../wire.js';
import {
  callFrameText,
  FromBindingsWorkerSchema,
  type FromBindingsWorker,
  type ToBindingsWorker,
} from './worker-wire.js';

export interface WebBindingsHostOptions {
  // the module's name as the notebook gives it (messages), and its text
  file: string;
  text: string;
  // a fresh bindings worker (running bindings-worker.ts)
  startWorker(): RunWorker;
  // TypeScript to JavaScript for a `.ts` module (the same step that strips the cells' TypeScript)
  strip(text: string, file: string): Promise<StripResult>;
  // the module's warnings and console output, for the log
  onWarning(message: string): void;
  onLog(entry: { stream: 'stdout' | 'stderr'; text: string }): void;
}

export type WebHostReady = { ok: true; module: DescribedModule } | { ok: false; message: string };

// What one run uses of the host: its namespaces (each call served in the worker), closed when the run settles.
export interface WebHostLease {
  namespaces: BindingNamespace[];
  close(): void;
}

interface Pending {
  label: string;
  context: CallContext | undefined;
  resolve(value: JsonValue): void;
  reject(error: Error): void;
}

interface Generation {
  worker: RunWorker;
  loaded: Promise<WebHostReady>;
  // settles `loaded` (a second settling is no-op)
  settleLoad(ready: WebHostReady): void;
  module: DescribedModule | undefined;
  // why it ended (`stopped responding`, `broke its protocol (…)`), once it did
  end: string | undefined;
  lastHeard: number;
  watch: ReturnType<typeof setInterval> | undefined;
  // calls in flight, by run then call id
  runs: Map<number, Map<number, Pending>>;
}

const TYPESCRIPT = /\.[mc]?ts$/;
let runIds = 0;

// One module's worker, started on first use, replaced when it ended or failed to load (the next run tries afresh).
export class WebBindingsHost {
  readonly #options: WebBindingsHostOptions;
  #generation: Generation | undefined;
  #disposed = false;
  // one start at a time: runs that ask meanwhile share it
  #starting: Promise<Generation | { message: string }> | undefined;

  constructor(options: WebBindingsHostOptions) {
    this.#options = options;
  }

  // The module, loaded in a live worker; never rejects. `timeoutMs` bounds the load (a top-level await that never
  // settles, a loop at the top level): the worker is then ended.
  async ready(options: { signal?: AbortSignal; timeoutMs: number }): Promise<WebHostReady> {
    if (this.#disposed) return { ok: false, message: 'the bindings worker is disposed' };
    let loading = this.#generation;
    // none yet, or ended (it crashed, stopped responding, failed to load): a fresh worker; one loading is waited for
    if (loading === undefined || loading.end !== undefined) {
      const started = await (this.#starting ??= this.#start().finally(() => (this.#starting = undefined)));
      if ('message' in started) return { ok: false, message: started.message };
      loading = started;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<'timeout' | 'aborted'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
      onAbort = () => resolve('aborted');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      if (options.signal?.aborted) onAbort();
    });
    const outcome = await Promise.race([loading.loaded, gaveUp]);
    clearTimeout(timer);
    if (onAbort !== undefined) options.signal?.removeEventListener('abort', onAbort);
    if (outcome === 'aborted') return { ok: false, message: 'cancelled while the bindings module was loading' };
    if (outcome === 'timeout') {
      this.#end(loading, 'was stopped: the module did not finish loading');
      return {
        ok: false,
        message: `the bindings module ${this.#options.file} did not finish loading within ${options.timeoutMs} ms (a top-level await that never settles, or a loop?)`,
      };
    }
    return outcome;
  }

  // What one run uses of the loaded worker; call after `ready()` succeeded.
  lease(options: { mode: 'mock' | 'live'; seed: number }): WebHostLease {
    const generation = this.#generation;
    const module = generation?.module;
    if (generation === undefined || module === undefined)
      throw new Error('WebBindingsHost.lease() needs a loaded module: await ready() first');
    const run = ++runIds;
    const pending = new Map<number, Pending>();
    generation.runs.set(run, pending);
    this.#send(generation, { type: 'open-run', run, mode: options.mode, seed: options.seed >>> 0 });
    let calls = 0;
    const namespaces = Object.entries(module.namespaces).map(([global, ns]): BindingNamespace => {
      const functions: BindingNamespace['functions'] = Object.create(null);
      for (const name of Object.keys(ns.functions)) {
        const label = `${global}.${name}`;
        const fn = (args: JsonValue, context?: CallContext): Promise<JsonValue> =>
          new Promise<JsonValue>((resolve, reject) => {
            if (generation.end !== undefined) return reject(new Error(`bindings worker ${generation.end}`));
            const id = ++calls;
            const encoded = encodeLossless(args);
            if (!encoded.ok) return reject(new Error(`the arguments of ${label} are not lossless JSON`));
            const signal = context?.signal;
            const onAbort = (): void => {
              if (!pending.delete(id)) return;
              this.#send(generation, { type: 'stop', run, id, message: 'run settled' });
              reject(new Error('run settled'));
            };
            pending.set(id, {
              label,
              context,
              resolve: (value) => {
                signal?.removeEventListener('abort', onAbort);
                resolve(value);
              },
              reject: (error) => {
                signal?.removeEventListener('abort', onAbort);
                reject(error);
              },
            });
            signal?.addEventListener('abort', onAbort, { once: true });
            generation.worker.postMessage(callFrameText({ run, id, global, name }, encoded.text));
          });
        Object.defineProperty(functions, name, { value: fn, enumerable: true });
      }
      return ns.errorClass === undefined ? { global, functions } : { global, functions, errorClass: ns.errorClass };
    });
    return {
      namespaces,
      close: () => {
        generation.runs.delete(run);
        if (generation.end === undefined) this.#send(generation, { type: 'close-run', run });
      },
    };
  }

  // Ends the worker (the extension is deactivated, or the module changed); later calls to ready() fail.
  dispose(): void {
    this.#disposed = true;
    if (this.#generation !== undefined) this.#end(this.#generation, 'was stopped');
  }

  async #start(): Promise<Generation | { message: string }> {
    const { file, text } = this.#options;
    let code = text;
    if (TYPESCRIPT.test(file)) {
      const stripped = await this.#options.strip(text, file);
      if (!stripped.ok) return { message: `bindings module ${file} failed to load: ${stripped.message}` };
      code = stripped.code;
    }
    if (this.#disposed) return { message: 'the bindings worker is disposed' };
    let worker: RunWorker;
    try {
      worker = this.#options.startWorker();
    } catch (error) {
      return { message: `could not start the bindings worker: ${errorMessage(error)}` };
    }
    let settle: (ready: WebHostReady) => void = () => undefined;
    const generation: Generation = {
      worker,
      loaded: new Promise<WebHostReady>((resolve) => (settle = resolve)),
      settleLoad: (ready) => {
        if (ready.ok) generation.module = ready.module;
        settle(ready);
      },
      module: undefined,
      end: undefined,
      lastHeard: performance.now(),
      watch: undefined,
      runs: new Map(),
    };
    this.#generation = generation;
    worker.onmessage = (event) => {
      generation.lastHeard = performance.now();
      const frame = this.#decode(event.data);
      if (typeof frame === 'string') return this.#end(generation, `broke its protocol (${frame})`);
      this.#receive(generation, frame);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.#end(generation, `failed: ${event.message ?? 'an error without a message'}`);
    };
    // silence while the module is loaded is a handler in a synchronous loop: the worker is ended (as the desktop's
    // host)
    generation.watch = setInterval(() => {
      if (generation.module !== undefined && performance.now() - generation.lastHeard > UNRESPONSIVE_MS)
        this.#end(generation, 'stopped responding');
    }, CHECK_MS);
    this.#send(generation, { type: 'load', file, code });
    return generation;
  }

  // A frame, or why it is not one.
  #decode(data: unknown): FromBindingsWorker | string {
    if (typeof data !== 'string') return 'a message that is not text';
    if (data.length > LIMITS.maxFrameBytes) return `a message of more than ${LIMITS.maxFrameBytes} characters`;
    const decoded = decodeLossless(data);
    if (!decoded.ok) return `a message that is not lossless JSON: ${decoded.reason}`;
    const parsed = FromBindingsWorkerSchema.safeParse(decoded.value);
    return parsed.success ? parsed.data : `a malformed message: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  }

  #receive(generation: Generation, frame: FromBindingsWorker): void {
    switch (frame.type) {
      case 'heartbeat':
        return;
      case 'loaded':
        return generation.settleLoad({ ok: true, module: frame.module });
      case 'load-failed':
        generation.settleLoad({ ok: false, message: frame.message });
        // a module that failed to load is tried afresh by the next run
        return this.#end(generation, 'was stopped: the module failed to load');
      case 'warning':
        return this.#options.onWarning(frame.message);
      case 'log':
        return this.#options.onLog({ stream: frame.stream, text: frame.text });
      case 'note': {
        const call = generation.runs.get(frame.run)?.get(frame.id);
        if (frame.schemaViolation !== undefined) call?.context?.annotate({ schemaViolation: frame.schemaViolation });
        if (frame.progress !== undefined) call?.context?.annotate({ progress: frame.progress });
        return;
      }
      case 'answer':
      case 'failed': {
        const calls = generation.runs.get(frame.run);
        const call = calls?.get(frame.id);
        if (call === undefined) return;
        calls?.delete(frame.id);
        if (frame.type === 'answer') return call.resolve(frame.value);
        return call.reject(
          frame.details === undefined
            ? new Error(frame.message)
            : new CallFailure(frame.message, {
                ...(frame.details.code === undefined ? {} : { code: frame.details.code }),
                ...(frame.details.data === undefined ? {} : { data: frame.details.data }),
              }),
        );
      }
    }
  }

  #send(generation: Generation, message: ToBindingsWorker): void {
    if (generation.end === undefined) generation.worker.postMessage(JSON.stringify(message));
  }

  // The worker is terminated now, whatever its code is doing; each call it was running fails naming itself.
  #end(generation: Generation, what: string): void {
    if (generation.end !== undefined) return;
    generation.end = what;
    clearInterval(generation.watch);
    generation.worker.terminate();
    generation.settleLoad({ ok: false, message: `the bindings worker ${what} while loading ${this.#options.file}` });
    for (const calls of generation.runs.values()) {
      for (const call of calls.values())
        call.reject(new Error(`bindings worker ${what} while ${call.label} was running`));
      calls.clear();
    }
  }
}
