// Public entry for bindings-module authors. Inside a module loaded by `ptc --bindings` (or the extension) import it as
// `import { defineBindings } from 'ptc-playground/bindings'`; the loader provides that specifier at load time.
import type { ErrorClassSpec } from '../api.js';
import type { CallPolicy, Handler, McpServerConfig } from './module-format.js';

export type { CallPolicy, Handler, HandlerContext, McpServerConfig } from './module-format.js';
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

// Per-tool overrides of an MCP namespace: a mock for mock mode, a timeout, fault injection.
export interface McpToolOverride extends CallPolicy {
  description?: string;
  mock?: Handler;
}

export interface McpNamespaceSpec {
  errorClass?: ErrorClassSpec;
  mcp: McpServerConfig;
  functions?: Record<string, McpToolOverride>;
}

export type BindingsSpec = Record<string, HandlerNamespaceSpec | McpNamespaceSpec>;

// Typed identity helper: checks the module's shape at compile time and returns it unchanged.
export function defineBindings<const T extends BindingsSpec>(bindings: T): T {
  return bindings;
}
