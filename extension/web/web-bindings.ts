// The browser's bindings (vscode.dev, github.dev), for the notebook's `metadata.bindings`:
// - a JSON bindings module (`*.bindings.json`) gets that module's MCP servers over HTTP, through the desktop's own MCP
//   client (its fetch transports only: a browser starts no stdio server). A module's servers stay connected for every
//   cell, as a desktop session keeps them;
// - a code module (`.js`, `.mjs`, `.ts`, `.mts`) runs in a dedicated web worker of its own (the desktop's bindings
//   host process as a worker: runtime/bindings-host/web/), its mock handlers answering the cell's calls; its live
//   handlers may need Node, so a live cell says so instead.
// A module whose text changed is loaded anew, and one that failed is tried again by the next cell (its server may have
// started since, its syntax error may be fixed).
import * as vscode from 'vscode';
import {
  type BindingNamespace,
  type BindingsModule,
  errorMessage,
  readJsonBindings,
  resolveBindings,
  runPauses,
  type RunPauses,
  type RunResult,
  servedNamespaces,
  stripModuleLoaded,
  WebBindingsHost,
} from '../../runtime/browser.js';
import { trustBlock } from '../execution/trust.js';
import type { Logger } from '../log/logger.js';
import { askInBrowser } from './web-approvals.js';
import { embeddedWorker, runWorker } from './embedded-worker.js';
import BINDINGS_WORKER_SOURCE from 'ptc:bindings-worker';

export type WebBindingsOutcome =
  // no bindings module: a cell's cassette (if any) answers its calls
  | { kind: 'none' }
  // every function of the module, answered by its MCP servers
  | { kind: 'live'; namespaces: BindingNamespace[] }
  // a code module's functions in mock mode, served by its worker; `finish` ends the run's lease
  | { kind: 'mock'; namespaces: BindingNamespace[]; pauses: RunPauses | undefined; finish(result: RunResult): void }
  // why the cell cannot run (the module unreadable or invalid, a server that could not start, live handlers)
  | { kind: 'failed'; message: string };

// What a cell asks of the notebook's bindings: which handlers its plan wants, and the bound of the module's load.
export interface WebBindingsRequest {
  handlers: 'mock' | 'live';
  timeoutMs: number;
  signal: AbortSignal;
}

type Loaded =
  | { kind: 'json'; text: string; module: Promise<BindingsModule> }
  | { kind: 'code'; text: string; host: WebBindingsHost };

const CODE = /\.(m?js|m?ts)$/;

export class WebBindings {
  readonly #loaded = new Map<string, Loaded>();
  readonly #log: Logger;
  // hosts whose functions the log has named
  readonly #announced = new WeakSet<WebBindingsHost>();

  constructor(log: Logger) {
    this.#log = log;
  }

  // What one run of a cell of `notebook` gets; each run gets fresh namespaces (its own call deadlines, its own lease).
  async forNotebook(
    notebook: { uri: vscode.Uri; metadata: unknown },
    request: WebBindingsRequest,
  ): Promise<WebBindingsOutcome> {
    const given = (notebook.metadata as { bindings?: unknown } | undefined)?.bindings;
    const named = typeof given === 'string' ? given.trim() : '';
    const json = named.endsWith('.json');
    if (!json && !CODE.test(named)) {
      if (named === '') return { kind: 'none' };
      return {
        kind: 'failed',
        message: named.endsWith('.cjs')
          ? `bindings module ${named} is CommonJS, which the browser cannot load: write it as an ES module (.mjs, .js or .ts with \`export default\`), or open the notebook in VS Code on the desktop`
          : `bindings module ${named}: expected a .json, .js, .mjs, .ts or .mts file`,
      };
    }
    if (!vscode.workspace.isTrusted)
      return {
        kind: 'failed',
        message: json
          ? vscode.l10n.t(
              "This notebook's bindings module names MCP servers, which are not connected in Restricted Mode (an untrusted notebook could point its programs at a server on your machine): trust the workspace to connect them.",
            )
          : (trustBlock(false, vscode.l10n.t)?.message ?? ''),
      };
    if (!json && request.handlers === 'live')
      return {
        kind: 'failed',
        message: vscode.l10n.t(
          "This cell runs in live mode, and the notebook's bindings module {0} is code whose live handlers may need Node (files, processes, the environment's credentials), which a browser does not have. Switch the notebook or the cell to mock mode to run the module's mock handlers here (in a web worker), replay a cassette, or open the notebook in VS Code on the desktop.",
          named,
        ),
      };
    const uri = vscode.Uri.joinPath(notebook.uri, '..', named);
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      return { kind: 'failed', message: `bindings module not found: ${named} (${errorMessage(error)})` };
    }
    const key = uri.toString();
    let entry = this.#loaded.get(key);
    if (entry !== undefined && entry.text !== text) {
      this.#forget(key, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = json
        ? { kind: 'json', text, module: this.#loadJson(named, text) }
        : { kind: 'code', text, host: this.#host(named, text) };
      this.#loaded.set(key, entry);
    }
    return entry.kind === 'json' ? this.#json(key, named, entry) : this.#code(named, entry.host, request);
  }

  async #json(key: string, named: string, entry: Extract<Loaded, { kind: 'json' }>): Promise<WebBindingsOutcome> {
    try {
      const module = await entry.module;
      // a JSON module has no mock handlers: its tools are the server's whatever the notebook's mode
      return { kind: 'live', namespaces: servedNamespaces(module, 'live', { onWarning: this.#warnings(named) }) };
    } catch (error) {
      if (this.#loaded.get(key) === entry) this.#loaded.delete(key);
      return { kind: 'failed', message: errorMessage(error) };
    }
  }

  async #code(named: string, host: WebBindingsHost, request: WebBindingsRequest): Promise<WebBindingsOutcome> {
    const ready = await host.ready({ timeoutMs: request.timeoutMs, signal: request.signal });
    if (!ready.ok) return { kind: 'failed', message: ready.message };
    if (!this.#announced.has(host)) {
      this.#announced.add(host);
      for (const [global, ns] of Object.entries(ready.module.namespaces)) {
        const names = Object.keys(ns.functions);
        this.#log.info(
          `bindings ${named}: ${global} has ${names.length} function(s), in a web worker of its own: ${names.join(', ')}`,
        );
      }
    }
    const lease = host.lease({ mode: 'mock', seed: Math.floor(Math.random() * 2 ** 32) });
    return {
      kind: 'mock',
      namespaces: lease.namespaces,
      // the module's approval policies, as the desktop applies them: `deny` refused, `ask` asked of the person here
      pauses: runPauses({ request: { onPause: askInBrowser }, module: ready.module, host: undefined, replay: false }),
      finish: (result) => {
        result.mode = 'mock';
        lease.close();
      },
    };
  }

  #host(named: string, text: string): WebBindingsHost {
    return new WebBindingsHost({
      file: named,
      text,
      startWorker: () => runWorker(embeddedWorker(BINDINGS_WORKER_SOURCE, 'ptc-bindings')),
      strip: (source, file) => stripModuleLoaded(source, file),
      onWarning: this.#warnings(named),
      onLog: ({ stream, text: said }) =>
        stream === 'stderr'
          ? this.#log.warn(`[bindings ${named}] ${said}`)
          : this.#log.info(`[bindings ${named}] ${said}`),
    });
  }

  async #loadJson(named: string, text: string): Promise<BindingsModule> {
    const module = await resolveBindings(named, readJsonBindings(named, text), {
      onWarning: this.#warnings(named),
      stdio: undefined,
      // a browser has no environment: a header that names a variable fails the load, naming it
      env: {},
    });
    for (const [global, ns] of Object.entries(module.namespaces)) {
      const names = Object.keys(ns.functions);
      this.#log.info(
        `bindings ${named}: ${global} has ${names.length} function(s) from the MCP server at ${ns.mcp?.url ?? '?'}: ${names.join(', ')}`,
      );
    }
    return module;
  }

  #forget(key: string, entry: Loaded): void {
    this.#loaded.delete(key);
    if (entry.kind === 'code') return entry.host.dispose();
    void entry.module.then(
      (module) => module.dispose(),
      () => undefined,
    );
  }

  // A module's warnings (a tool left out, a server's complaint, an output schema broken) in the log, named for it.
  #warnings(named: string): (message: string) => void {
    return (message) => this.#log.warn(`[bindings ${named}] ${message}`);
  }

  // Disconnects every server and ends every bindings worker (the extension is deactivated).
  dispose(): void {
    for (const [key, entry] of [...this.#loaded]) this.#forget(key, entry);
  }
}
