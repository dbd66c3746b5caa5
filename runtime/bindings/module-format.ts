import type { BindingFunction, ErrorClassSpec } from '../api.js';

export type Mode = 'mock' | 'live';

// One function of a bindings module: a bare handler (both modes) or a declaration with schemas and handlers.
export interface FunctionDeclaration {
  description?: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
  mock?: BindingFunction;
  live?: BindingFunction;
}

export interface NamespaceDeclaration {
  errorClass?: ErrorClassSpec;
  functions: Record<string, FunctionDeclaration>;
}

// A loaded, validated bindings module: namespace global → declaration.
export interface BindingsModule {
  path: string;
  namespaces: Record<string, NamespaceDeclaration>;
}

export class BindingsModuleError extends Error {
  override readonly name = 'BindingsModuleError';
}
