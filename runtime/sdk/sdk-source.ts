import type { ErrorClassSpec } from '../api.js';

// What the SDK needs of a bindings module (a loaded `BindingsModule` fits): names, descriptions and schemas only.
export interface SdkSource {
  namespaces: Record<string, SdkNamespaceSource>;
}

export interface SdkNamespaceSource {
  errorClass?: ErrorClassSpec;
  functions: Record<string, SdkFunctionSource>;
  // set for an MCP server's namespace
  mcp?: unknown;
  // tools the program cannot call, with the reason
  unavailable?: Record<string, string>;
}

export interface SdkFunctionSource {
  description?: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
  // without an output schema: MCP content items (`McpContent[]`) or a string
  returns?: 'mcp-content' | 'text';
}

export interface SdkFunction extends SdkFunctionSource {
  name: string;
}

export interface SdkNamespace {
  global: string;
  errorClass: ErrorClassSpec | undefined;
  functions: SdkFunction[];
  mcp: boolean;
  unavailable: [string, string][];
}

// Code-unit order, never locale order: the same module renders the same bytes on every machine.
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

// Namespaces and their functions in lexicographic order.
export function sortedNamespaces(source: SdkSource): SdkNamespace[] {
  return Object.keys(source.namespaces)
    .sort(byCodeUnit)
    .map((global) => {
      const ns = source.namespaces[global] as SdkNamespaceSource;
      const functions = Object.keys(ns.functions)
        .sort(byCodeUnit)
        .map((name): SdkFunction => ({ name, ...pick(ns.functions[name] as SdkFunctionSource) }));
      const unavailable = Object.entries(ns.unavailable ?? {}).sort(([a], [b]) => byCodeUnit(a, b));
      return {
        global,
        errorClass: ns.errorClass,
        functions,
        mcp: ns.mcp !== undefined && ns.mcp !== false,
        unavailable,
      };
    });
}

function pick(fn: SdkFunctionSource): SdkFunctionSource {
  const out: SdkFunctionSource = {};
  if (typeof fn.description === 'string' && fn.description.trim().length > 0) out.description = fn.description;
  if (fn.input !== undefined) out.input = fn.input;
  if (fn.output !== undefined) out.output = fn.output;
  if (fn.returns === 'mcp-content' || fn.returns === 'text') out.returns = fn.returns;
  return out;
}

// One declared error class per namespace that has one (the loader keeps class names unique across the module).
export interface SdkErrorClass {
  name: string;
  memberNameProperty: string;
  global: string;
  names: string[];
  // an MCP namespace's errors may carry the JSON-RPC `code` and `data`
  mcp: boolean;
}

export function errorClasses(namespaces: readonly SdkNamespace[]): SdkErrorClass[] {
  return namespaces
    .filter((ns): ns is SdkNamespace & { errorClass: ErrorClassSpec } => ns.errorClass !== undefined)
    .map((ns) => ({ ...ns.errorClass, global: ns.global, names: ns.functions.map((f) => f.name), mcp: ns.mcp }))
    .sort((a, b) => byCodeUnit(a.name, b.name));
}
