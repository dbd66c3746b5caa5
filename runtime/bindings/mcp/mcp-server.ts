import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ProgressNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { z } from 'zod';
import type { JsonValue } from '../../protocol/json-value.js';
import { CallFailure } from '../call-failure.js';
import type { McpServerConfig, ProgressNote } from '../module-format.js';
import {
  cleanRpcMessage,
  mapToolResult,
  normalizeResourceContents,
  normalizeResourceEntry,
  type McpResourceContents,
  type McpResourceEntry,
  type ResultMode,
} from './map-result.js';
import { errorMessage } from '../../output/error-message.js';

export interface McpTool {
  name: string;
  description: string | undefined;
  inputSchema: Record<string, unknown> | undefined;
  outputSchema: Record<string, unknown> | undefined;
  // why the tool cannot be offered (it is then left out, with a warning); undefined when it can
  unavailable: string | undefined;
}

// A stdio server's transport (a process of its own): why it ended and what it last wrote to stderr, for the messages.
export interface ServerProcessTransport extends Transport {
  failure(): string | undefined;
  readonly stderrTail: string;
}

// Starts a stdio server (Node only: stdio-start.ts); throws saying why it cannot (a command not found).
export type StdioStarter = (config: McpServerConfig) => ServerProcessTransport;

const CONNECT_TIMEOUT_MS = 15_000;
// our per-call deadline governs; the SDK's own request timeout only backs it up
const SDK_REQUEST_TIMEOUT_MS = 2_147_000_000;
// a transport complaint's text is cut to one line of this many characters (a zod dump runs to 20 lines)
const MAX_PROBLEM_CHARS = 300;

// Output schemas are checked by the bindings layer (a mismatch is a warning), so the SDK's own check passes everything.
const passThroughValidator: jsonSchemaValidator = {
  getValidator<T>(): JsonSchemaValidator<T> {
    return (input: unknown) => ({ valid: true, data: input as T, errorMessage: undefined });
  },
};

// The server's answers are parsed by us, field by field: one malformed tool or content item must not fail the rest.
const LooseResult = z.object({}).passthrough();

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function describeServer(config: McpServerConfig): string {
  if (config.url !== undefined) return config.url;
  return [config.command ?? '', ...(config.args ?? [])].join(' ');
}

// `${env:NAME}` in a header value is the host environment's NAME, read when the server is connected (so a token
// lives in the environment, never in the module or a notebook); a missing variable fails the connection by name.
export function expandHeaders(
  headers: Record<string, string> | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers ?? {})) {
    out[key] = value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const found = env[name];
      if (found === undefined)
        throw new Error(`header ${key} needs the environment variable ${name}, which is not set`);
      return found;
    });
  }
  return out;
}

export interface McpServerSessionOptions {
  label: string;
  config: McpServerConfig;
  // transport trouble that does not fail a call (a stray stdout line), and every connection loss with its cause
  onWarning: (message: string) => void;
  // how a stdio server starts; absent where there are no processes (a browser), where a stdio server cannot start
  stdio: StdioStarter | undefined;
  // what `${env:NAME}` in a header reads (a browser has no environment: pass {})
  env: Readonly<Record<string, string | undefined>>;
}

// A fetch that never reached an answer: Node's `fetch failed` hides its cause (ECONNREFUSED…) one level down, and a
// browser's TypeError says nothing at all, because it may not tell a server that is down from one that refused CORS.
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = cleanRpcMessage(error.message);
  // an AggregateError (every address refused) has no message of its own, only a code
  const cause =
    error.cause instanceof Error ? error.cause.message || String((error.cause as { code?: unknown }).code ?? '') : '';
  if (cause !== '' && message === 'fetch failed') return `${message} (${cause})`;
  if (error instanceof TypeError && /^(Failed to fetch|NetworkError|Load failed)/.test(message))
    return `${message} (the browser could not reach the server, or the server does not allow requests from this origin: see "MCP servers in the browser" in docs/bindings.md)`;
  return message;
}

// A complaint's kind: the text before its first colon.
const problemKind = (text: string): string => text.replace(/\s+/g, ' ').trim().split(':', 1)[0] ?? text;

// The HTTP status an SDK transport error carries only as `code` (a JSON-RPC error's code is not one, nor the -1 the
// SDK gives an answer of the wrong content type).
function httpStatus(error: unknown): string {
  const code: unknown =
    error instanceof Error && !(error instanceof McpError) ? (error as Error & { code?: unknown }).code : undefined;
  return typeof code === 'number' && code >= 100 && code <= 599 ? ` (HTTP ${code})` : '';
}

// One MCP server (stdio or remote) kept alive for the session that loaded the bindings module; reconnected (a stdio
// server restarted) by the next call after it died.
export class McpServerSession {
  readonly label: string;
  readonly config: McpServerConfig;
  readonly #warn: (message: string) => void;
  readonly #stdio: StdioStarter | undefined;
  readonly #env: Readonly<Record<string, string | undefined>>;
  #client: Client | undefined;
  // the stdio server's process transport (its exit, its stderr), for the messages; undefined for a remote server
  #process: ServerProcessTransport | undefined;
  #connecting: Promise<Client> | undefined;
  #disposed = false;
  // transport complaints by kind (the text before the first colon): the first one shown, the rest counted
  readonly #problems = new Map<string, { count: number; reported: number }>();
  // progress listeners by token: ours, not the SDK's (which drops a report that arrives just before its answer)
  readonly #progress = new Map<string, (note: ProgressNote) => void>();
  #nextToken = 0;

  constructor(options: McpServerSessionOptions) {
    this.label = options.label;
    this.config = options.config;
    this.#warn = options.onWarning;
    this.#stdio = options.stdio;
    this.#env = options.env;
  }

  // Starts the server and lists its tools (every page); a tool that cannot be offered is marked, not fatal.
  async listTools(): Promise<McpTool[]> {
    const client = await this.#connected();
    const tools: McpTool[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        LooseResult,
        { timeout: CONNECT_TIMEOUT_MS },
      );
      const listed = Array.isArray(page.tools) ? (page.tools as unknown[]) : [];
      for (const raw of listed) {
        if (!isObject(raw) || typeof raw.name !== 'string' || raw.name.length === 0 || seen.has(raw.name)) continue;
        seen.add(raw.name);
        tools.push(describeTool(raw as Record<string, unknown> & { name: string }));
      }
      cursor = typeof page.nextCursor === 'string' && page.nextCursor.length > 0 ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    this.#reportProblems();
    return tools;
  }

  async call(
    name: string,
    args: JsonValue,
    options: { signal: AbortSignal; mode: ResultMode; onProgress?: (note: ProgressNote) => void },
  ): Promise<JsonValue> {
    const result = await this.#request(
      { method: 'tools/call', params: args === null ? { name } : { name, arguments: args as Record<string, unknown> } },
      options.signal,
      options.onProgress,
    );
    const outcome = mapToolResult(result, options.mode);
    if (!outcome.ok) throw new CallFailure(outcome.message, outcome.details ?? {});
    return outcome.value;
  }

  // resources/read: the resource's contents (text, or base64 `blob`), each in the stable shape.
  async readResource(uri: string, signal: AbortSignal): Promise<McpResourceContents[]> {
    const result = await this.#request({ method: 'resources/read', params: { uri } }, signal, undefined);
    const contents = Array.isArray(result.contents) ? result.contents : [];
    return contents.map(normalizeResourceContents).filter((c): c is McpResourceContents => c !== undefined);
  }

  // resources/list, every page.
  async listResources(signal: AbortSignal): Promise<McpResourceEntry[]> {
    const entries: McpResourceEntry[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#request(
        { method: 'resources/list', params: cursor === undefined ? {} : { cursor } },
        signal,
        undefined,
      );
      for (const raw of Array.isArray(page.resources) ? page.resources : []) {
        const entry = normalizeResourceEntry(raw);
        if (entry !== undefined) entries.push(entry);
      }
      cursor = typeof page.nextCursor === 'string' && page.nextCursor.length > 0 ? page.nextCursor : undefined;
    } while (cursor !== undefined && !signal.aborted);
    return entries;
  }

  async #request(
    request: { method: string; params: Record<string, unknown> },
    signal: AbortSignal,
    onProgress: ((note: ProgressNote) => void) | undefined,
  ): Promise<Record<string, unknown>> {
    const client = await this.#connected();
    const serverProcess = this.#process;
    const token = onProgress === undefined ? undefined : `ptc-${++this.#nextToken}`;
    if (token !== undefined && onProgress !== undefined) this.#progress.set(token, onProgress);
    const params = token === undefined ? request.params : { ...request.params, _meta: { progressToken: token } };
    try {
      return await client.request({ method: request.method, params }, LooseResult, {
        signal,
        timeout: SDK_REQUEST_TIMEOUT_MS,
      });
    } catch (error) {
      throw this.#explain(error, serverProcess, signal);
    } finally {
      this.#reportProblems();
      // a report sent just before the answer is still being handled: the listener goes after it (setTimeout, not
      // setImmediate: browsers have no setImmediate)
      if (token !== undefined) setTimeout(() => this.#progress.delete(token), 0);
    }
  }

  // A failed request as the program should read it: a JSON-RPC error keeps its code and data (its message without
  // the SDK's prefix), a lost connection says why it was lost and what the server last wrote to stderr.
  #explain(error: unknown, serverProcess: ServerProcessTransport | undefined, signal: AbortSignal): Error {
    if (signal.aborted) return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
    if (
      error instanceof McpError &&
      error.code !== ErrorCode.ConnectionClosed &&
      error.code !== ErrorCode.RequestTimeout
    ) {
      const details =
        error.data === undefined ? { code: error.code } : { code: error.code, data: error.data as JsonValue };
      return new CallFailure(cleanRpcMessage(error.message), details, { cause: error });
    }
    const cause = serverProcess?.failure();
    const tail = serverProcess?.stderrTail ?? '';
    const plain = `${describeError(error)}${httpStatus(error)}`;
    const message = `the connection to the MCP server of ${this.label} was lost: ${cause ?? plain}${tail.length > 0 ? `\nserver stderr (last lines):\n${tail}` : ''}`;
    this.#warn(message);
    return new CallFailure(message, error instanceof McpError ? { code: error.code } : {}, { cause: error });
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    this.#connecting = undefined;
    await client?.close().catch(() => undefined);
  }

  #connected(): Promise<Client> {
    if (this.#disposed)
      return Promise.reject(new Error(`MCP server of ${this.label} was stopped (bindings module disposed)`));
    if (this.#client !== undefined) return Promise.resolve(this.#client);
    this.#connecting ??= this.#connect().finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  // One line per kind of problem (a server printing logs on stdout, every line): the first in full, later ones counted
  // and reported as one line when a request ends (see #reportProblems).
  #transportWarning(error: Error): void {
    const text = error.message.replace(/\s+/g, ' ').trim();
    const kind = problemKind(text);
    const seen = this.#problems.get(kind);
    if (seen !== undefined) {
      seen.count++;
      return;
    }
    this.#problems.set(kind, { count: 1, reported: 1 });
    this.#warn(
      `MCP server of ${this.label}: ${text.length > MAX_PROBLEM_CHARS ? `${text.slice(0, MAX_PROBLEM_CHARS)}…` : text}`,
    );
  }

  // The complaints counted since the last report, one line per kind ("44 more times: the server wrote a line…").
  #reportProblems(): void {
    for (const [kind, seen] of this.#problems) {
      if (seen.count === seen.reported) continue;
      this.#warn(`MCP server of ${this.label}: ${seen.count - seen.reported} more time(s): ${kind}`);
      seen.reported = seen.count;
    }
  }

  // The complaints in all, for an error that ends the connection ("it wrote 45 lines that were not JSON-RPC…").
  // An HTTP transport reports the error that ends a request as a complaint too: `failure` leaves that one out.
  #problemCounts(failure: unknown): string {
    const ending = failure instanceof Error ? problemKind(failure.message) : undefined;
    const parts = [...this.#problems]
      .filter(([kind]) => kind !== ending)
      .map(([kind, seen]) => `${seen.count} × ${kind}`);
    return parts.length === 0 ? '' : `; meanwhile the server did this wrong: ${parts.join('; ')}`;
  }

  async #connect(): Promise<Client> {
    if (this.config.url !== undefined) return this.#connectRemote(this.config.url);
    const fail = (reason: string, cause?: unknown): Error =>
      new Error(`MCP server of ${this.label} (${describeServer(this.config)}) could not start: ${reason}`, { cause });
    if (this.#stdio === undefined)
      throw fail(
        'a stdio server is a process, and a browser starts none: in vscode.dev and github.dev a namespace can only name an MCP server over HTTP (`mcp: { url }`)',
      );
    let transport: ServerProcessTransport;
    try {
      transport = this.#stdio(this.config);
    } catch (error) {
      throw fail(errorMessage(error), error);
    }
    return this.#open(transport, transport);
  }

  // Streamable HTTP first; a server that refuses it (an older one) is tried over HTTP+SSE, as the spec advises.
  async #connectRemote(url: string): Promise<Client> {
    let headers: Record<string, string>;
    try {
      headers = expandHeaders(this.config.headers, this.#env);
    } catch (error) {
      throw new Error(`MCP server of ${this.label} (${url}) could not start: ${errorMessage(error)}`, {
        cause: error,
      });
    }
    const target = new URL(url);
    const requestInit = { headers };
    const mode = this.config.transport ?? 'auto';
    if (mode === 'sse') return this.#open(new SSEClientTransport(target, { requestInit }), undefined);
    try {
      return await this.#open(new StreamableHTTPClientTransport(target, { requestInit }), undefined);
    } catch (error) {
      if (mode === 'streamable-http' || this.#disposed) throw error;
      try {
        return await this.#open(new SSEClientTransport(target, { requestInit }), undefined);
      } catch (fallback) {
        throw new Error(`${errorMessage(error)}\n(the HTTP+SSE fallback failed too: ${errorMessage(fallback)})`, {
          cause: fallback,
        });
      }
    }
  }

  async #open(transport: Transport, serverProcess: ServerProcessTransport | undefined): Promise<Client> {
    const client = new Client(
      { name: 'ptc-playground', version: '0.1.0' },
      { jsonSchemaValidator: passThroughValidator },
    );
    client.onclose = () => {
      if (this.#client === client) {
        this.#client = undefined;
        this.#process = undefined;
      }
    };
    client.onerror = (error) => this.#transportWarning(error);
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.#progress.get(String(progressToken))?.({
        progress,
        ...(typeof total === 'number' ? { total } : {}),
        ...(typeof message === 'string' ? { message } : {}),
      });
    });
    try {
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
      this.#reportProblems();
    } catch (error) {
      await client.close().catch(() => undefined);
      const cause = serverProcess?.failure();
      const reason = `${describeError(error)}${httpStatus(error)}`;
      const tail = serverProcess?.stderrTail ?? '';
      throw new Error(
        `MCP server of ${this.label} (${describeServer(this.config)}) could not start: ${reason}${cause !== undefined && !reason.includes(cause) ? ` (${cause})` : ''}${this.#problemCounts(error)}${tail.length > 0 ? `\nserver stderr:\n${tail}` : ''}`,
        { cause: error },
      );
    }
    if (this.#disposed) {
      await client.close().catch(() => undefined);
      throw new Error(`MCP server of ${this.label} was stopped (bindings module disposed)`);
    }
    this.#client = client;
    this.#process = serverProcess;
    return client;
  }
}

// A listed tool with what the program needs of it, and why it cannot be offered if so.
function describeTool(raw: Record<string, unknown> & { name: string }): McpTool {
  const inputSchema = isObject(raw.inputSchema) ? raw.inputSchema : undefined;
  const outputSchema = isObject(raw.outputSchema) ? raw.outputSchema : undefined;
  let unavailable: string | undefined;
  if (raw.inputSchema !== undefined && inputSchema === undefined)
    unavailable = 'its inputSchema is not a JSON Schema object';
  else if (raw.outputSchema !== undefined && outputSchema === undefined)
    unavailable = 'its outputSchema is not a JSON Schema object';
  else if (isObject(raw.execution) && raw.execution.taskSupport === 'required')
    unavailable = 'it can only run as an MCP task, which is not supported';
  return {
    name: raw.name,
    description: typeof raw.description === 'string' ? raw.description : undefined,
    inputSchema,
    outputSchema,
    unavailable,
  };
}
