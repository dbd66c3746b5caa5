// Public entry for bindings-module authors. Inside a module loaded by `ptc --bindings` (or the extension) import it as
// `import { defineBindings } from 'ptc-playground/bindings'`; the loader provides that specifier at load time.
import type { ErrorClassSpec } from '../api.js';
import type { CallPolicy, Handler, McpServerConfig, ResultMode } from './module-format.js';

export type {
  CallPolicy,
  Handler,
  HandlerContext,
  McpServerConfig,
  ProgressNote,
  ResultMode,
} from './module-format.js';
export type { McpContent, McpResourceContents } from './mcp/map-result.js';
export type { ErrorClassSpec } from '../api.js';

// A JSON Schema (draft 2020-12 or 07) as a plain object.
export type JsonSchema = Record<string, unknown>;

export interface FunctionSpec extends CallPolicy {
  description?: string;
  input?: JsonSchema;
  output?: JsonSchema;
  mock?: Handler;
  live?: Handler;
}

export interface HandlerNamespaceSpec {
  errorClass?: ErrorClassSpec;
  functions: Record<string, Handler | FunctionSpec>;
}

// Per-tool overrides of an MCP namespace (keyed by the server's tool name): the name the program calls it by, its
// description and schemas, its result mode, a mock for mock mode, its deadlines, fault injection.
export interface McpToolOverride extends CallPolicy {
  name?: string;
  description?: string;
  input?: JsonSchema;
  output?: JsonSchema;
  result?: ResultMode;
  mock?: Handler;
}

export interface McpNamespaceSpec {
  errorClass?: ErrorClassSpec;
  mcp: McpServerConfig;
  // the result mode of the tools without an output schema (default 'content')
  result?: ResultMode;
  // only these tools / every tool but these
  include?: string[];
  exclude?: string[];
  // adds list_resources() and read_resource({ uri }) (or the names given)
  resources?: boolean | { list?: string; read?: string };
  functions?: Record<string, McpToolOverride>;
}

export type BindingsSpec = Record<string, HandlerNamespaceSpec | McpNamespaceSpec>;

// Typed identity helper: checks the module's shape at compile time and returns it unchanged.
export function defineBindings<const T extends BindingsSpec>(bindings: T): T {
  return bindings;
}
