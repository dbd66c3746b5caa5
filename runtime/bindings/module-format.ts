import type { BindingFunction, ErrorClassSpec } from '../api.js';
import type { JsonValue } from '../protocol/json-value.js';

export type Mode = 'mock' | 'live';

// What an author's handler learns about the call it serves (runs on the host, never in the sandboxed child).
export interface HandlerContext {
  id: number;
  global: string;
  name: string;
  // aborts when the call times out or the run settles
  signal: AbortSignal;
}

// Method syntax on purpose: parameters are bivariant, so authors may type `args` as the shape their schema promises.
export interface Handler {
  (args: never, context: HandlerContext): unknown;
}

// Per-function knobs that shape how a call is served; faults apply to mock handlers only.
export interface CallPolicy {
  // per-call deadline of the handler (default 30 000 ms)
  timeoutMs?: number;
  // mock only: delay before the handler runs
  latencyMs?: number;
  // mock only: fail calls with this message (every call, or `failRate` of them)
  failWith?: string;
  // mock only: fraction 0..1 of calls that fail
  failRate?: number;
}

// One function of a bindings module: a bare handler (both modes) or a declaration with schemas and handlers.
export interface FunctionDeclaration extends CallPolicy {
  description?: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
  mock?: BindingFunction;
  live?: BindingFunction;
}

// A stdio MCP server whose tools become the functions of one namespace.
export interface McpServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
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
