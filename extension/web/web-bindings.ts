// The browser's live bindings (vscode.dev, github.dev): a notebook whose `metadata.bindings` names a JSON bindings
// module (`*.bindings.json`) gets that module's MCP servers over HTTP, through the desktop's own MCP client (its fetch
// transports only: a browser starts no stdio server). A module's servers stay connected for every cell, as a
// desktop session keeps them; a module whose text changed is loaded anew, and one that failed is tried again by the
// next cell (its server may have started since).
import * as vscode from 'vscode';
import {
  readJsonBindings,
  resolveBindings,
  servedNamespaces,
  type BindingNamespace,
  type BindingsModule,
} from '../../runtime/browser.js';
import type { Logger } from '../log/logger.js';

export type WebBindingsOutcome =
  // no bindings module, or a code module the browser will not run: a cell's cassette (if any) answers its calls
  | { kind: 'none' }
  // every function of the module, answered by its MCP servers
  | { kind: 'live'; namespaces: BindingNamespace[] }
  // why the cell cannot run (the module unreadable or invalid, a server that could not start)
  | { kind: 'failed'; message: string };

interface Loaded {
  text: string;
  module: Promise<BindingsModule>;
}

const messageOf = (error: unknown): string => String((error as Error)?.message ?? error);

export class WebBindings {
  readonly #loaded = new Map<string, Loaded>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  // The namespaces one run of a cell of `notebook` gets; each run gets fresh ones (its own call deadlines).
  async forNotebook(notebook: { uri: vscode.Uri; metadata: unknown }): Promise<WebBindingsOutcome> {
    const given = (notebook.metadata as { bindings?: unknown } | undefined)?.bindings;
    const named = typeof given === 'string' ? given.trim() : '';
    if (!named.endsWith('.json')) return { kind: 'none' };
    if (!vscode.workspace.isTrusted)
      return {
        kind: 'failed',
        message: vscode.l10n.t(
          "This notebook's bindings module names MCP servers, which are not connected in Restricted Mode (an untrusted notebook could point its programs at a server on your machine): trust the workspace to connect them.",
        ),
      };
    const uri = vscode.Uri.joinPath(notebook.uri, '..', named);
    let text: string;
    try {
      text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch (error) {
      return { kind: 'failed', message: `bindings module not found: ${named} (${messageOf(error)})` };
    }
    const key = uri.toString();
    let entry = this.#loaded.get(key);
    if (entry !== undefined && entry.text !== text) {
      this.#forget(key, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = { text, module: this.#load(named, text) };
      this.#loaded.set(key, entry);
    }
    try {
      const module = await entry.module;
      // a JSON module has no mock handlers: its tools are the server's whatever the notebook's mode
      return { kind: 'live', namespaces: servedNamespaces(module, 'live', { onWarning: this.#warnings(named) }) };
    } catch (error) {
      if (this.#loaded.get(key) === entry) this.#loaded.delete(key);
      return { kind: 'failed', message: messageOf(error) };
    }
  }

  async #load(named: string, text: string): Promise<BindingsModule> {
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
    void entry.module.then(
      (module) => module.dispose(),
      () => undefined,
    );
  }

  // A module's warnings (a tool left out, a server's complaint) in the log, named for the module.
  #warnings(named: string): (message: string) => void {
    return (message) => this.#log.warn(`[bindings ${named}] ${message}`);
  }

  // Disconnects every server (the extension is deactivated).
  dispose(): void {
    for (const [key, entry] of [...this.#loaded]) this.#forget(key, entry);
  }
}
