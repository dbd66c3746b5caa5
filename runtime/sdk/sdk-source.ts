import type { ErrorClassSpec } from '../api.js';

// What the SDK needs of a bindings module (a loaded `BindingsModule` fits): names, descriptions and schemas only.
export interface SdkSource {
  namespaces: Record<string, SdkNamespaceSource>;
}

export interface SdkNamespaceSource {
  errorClass?: ErrorClassSpec;
  functions: Record<string, SdkFunctionSource>;
}

export interface SdkFunctionSource {
  description?: string;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
}

export interface SdkFunction extends SdkFunctionSource {
  name: string;
}

export interface SdkNamespace {
  global: string;
  errorClass: ErrorClassSpec | undefined;
  functions: SdkFunction[];
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
      return { global, errorClass: ns.errorClass, functions };
    });
}

function pick(fn: SdkFunctionSource): SdkFunctionSource {
  const out: SdkFunctionSource = {};
  if (typeof fn.description === 'string' && fn.description.trim().length > 0) out.description = fn.description;
  if (fn.input !== undefined) out.input = fn.input;
  if (fn.output !== undefined) out.output = fn.output;
  return out;
}

// One declared error class per namespace that has one (the loader keeps class names unique across the module).
export interface SdkErrorClass {
  name: string;
  memberNameProperty: string;
  global: string;
  names: string[];
}

export function errorClasses(namespaces: readonly SdkNamespace[]): SdkErrorClass[] {
  return namespaces
    .filter((ns): ns is SdkNamespace & { errorClass: ErrorClassSpec } => ns.errorClass !== undefined)
    .map((ns) => ({ ...ns.errorClass, global: ns.global, names: ns.functions.map((f) => f.name) }))
    .sort((a, b) => byCodeUnit(a.name, b.name));
}
