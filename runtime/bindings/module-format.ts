import type { BindingFunction, ErrorClassSpec } from '../api.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { ResultMode } from './mcp/map-result.js';
import type { ApprovalPolicy } from '../protocol/call-pause.js';

export type { ResultMode };

import type { ProgressNote } from '../protocol/run-result.js';

// One progress notification of a running call (MCP notifications/progress, or a handler's own `context.progress`).
export type { ProgressNote };

export type Mode = 'mock' | 'live';

// What an author's handler learns about the call it serves (runs on the host, never in the sandboxed child).
export interface HandlerContext {
  id: number;
  global: string;
  name: string;
  // aborts when the call times out or the run settles
  signal: AbortSignal;
  // reports progress: recorded on the call, and each report restarts the call's deadline (up to maxTotalTimeoutMs)
  progress(note: ProgressNote): void;
}

// Method syntax on purpose: parameters are bivariant, so authors may type `args` as the shape their schema promises.
export interface Handler {
  (args: never, context: HandlerContext): unknown;
}

// Per-function knobs that shape how a call is served; faults apply to mock handlers only.
export interface CallPolicy {
  // per-call deadline of the handler (default 30 000 ms); a progress report starts it again
  timeoutMs?: number;
  // the longest a call may run however often it reports progress (default 300 000 ms)
  maxTotalTimeoutMs?: number;
  // mock only: delay before the handler runs
  latencyMs?: number;
  // mock only: fail calls with this message (every call, or `failRate` of them)
  failWith?: string;
  // mock only: fraction 0..1 of calls that fail
  failRate?: number;
  // calls wait for a person's decision (`ask`; `true` in a module), are refused (`deny`) or run (`allow`, `false`)
  approval?: ApprovalPolicy;
}

// One function of a bindings module: a bare handler (both modes) or a declaration with schemas and handlers.
export interface FunctionDeclaration extends CallPolicy {
  description?: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
  mock?: BindingFunction;
  live?: BindingFunction;
  // what the SDK declares as the result when there is no `output` schema: MCP content items or a string
  returns?: 'mcp-content' | 'text';
}

// An MCP server whose tools become the functions of one namespace: a stdio server (`command`) or a remote one (`url`).
export interface McpServerConfig {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  // Streamable HTTP (falling back to HTTP+SSE), or only one of them
  url?: string;
  transport?: 'auto' | 'streamable-http' | 'sse';
  // request headers; `${env:NAME}` in a value is read from the environment when the server is connected
  headers?: Record<string, string>;
}

export interface NamespaceDeclaration {
  errorClass?: ErrorClassSpec;
  functions: Record<string, FunctionDeclaration>;
  // set when the functions are an MCP server's tools
  mcp?: McpServerConfig;
  // the MCP server could not be started (optional load for a replay): `functions` holds only the module's overrides
  toolsUnlisted?: true;
  // why the tool list is missing (the server's start-up failure)
  problem?: string;
  // tools the server lists that the program cannot call, with the reason (shown to the model)
  unavailable?: Record<string, string>;
}

// A loaded, validated bindings module: namespace global → declaration. Owns MCP servers until disposed.
export interface BindingsModule {
  path: string;
  namespaces: Record<string, NamespaceDeclaration>;
  dispose(): Promise<void>;
}

export class BindingsModuleError extends Error {
  override readonly name = 'BindingsModuleError';
}

// A warning the host should show (CLI stderr, extension output channel); never part of the program's output.
export type WarningSink = (message: string) => void;

export type { JsonValue };
