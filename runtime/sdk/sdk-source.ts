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

// Error classes shared by several namespaces are declared once, naming every function that can raise them.
export interface SdkErrorClass {
  name: string;
  memberNameProperty: string;
  globals: string[];
  names: string[];
}

export function errorClasses(namespaces: readonly SdkNamespace[]): SdkErrorClass[] {
  const byName = new Map<string, SdkErrorClass>();
  for (const ns of namespaces) {
    if (ns.errorClass === undefined) continue;
    const entry = byName.get(ns.errorClass.name) ?? { name: ns.errorClass.name, memberNameProperty: ns.errorClass.memberNameProperty, globals: [], names: [] };
    entry.globals.push(ns.global);
    for (const fn of ns.functions) if (!entry.names.includes(fn.name)) entry.names.push(fn.name);
    byName.set(ns.errorClass.name, entry);
  }
  return [...byName.values()].sort((a, b) => byCodeUnit(a.name, b.name)).map((e) => ({ ...e, names: [...e.names].sort(byCodeUnit) }));
}
