import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BindingNamespace } from '../api.js';
import { BindingsModuleError, type BindingsModule, type FunctionDeclaration, type Mode, type NamespaceDeclaration } from './module-format.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

// Typed identity helper for authors of bindings modules.
export function defineBindings<T extends Record<string, NamespaceDeclaration>>(bindings: T): T {
  return bindings;
}

// TypeScript modules are bundled to a private temp file first (Node 20 cannot import .ts).
async function importModule(file: string): Promise<unknown> {
  if (!/\.(m|c)?ts$/.test(file)) return import(`${pathToFileURL(file).href}?t=${fs.statSync(file).mtimeMs}`);
  const { build } = await import('esbuild');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-bindings-'));
  const out = path.join(dir, 'bindings.mjs');
  try {
    await build({ entryPoints: [file], outfile: out, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent', packages: 'bundle',
      banner: { js: "import { createRequire as __ptcCreateRequire } from 'node:module'; const require = __ptcCreateRequire(import.meta.url);" } });
    return await import(pathToFileURL(out).href);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Loads a bindings module and validates its shape, naming the offending key on failure.
export async function loadBindingsModule(file: string): Promise<BindingsModule> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) throw new BindingsModuleError(`bindings module not found: ${file}`);
  let mod: unknown;
  try {
    mod = await importModule(absolute);
  } catch (error) {
    throw new BindingsModuleError(`bindings module ${file} failed to load: ${(error as Error).message ?? String(error)}`);
  }
  const exported = isObject(mod) ? mod.default : undefined;
  if (!isObject(exported)) throw new BindingsModuleError(`bindings module ${file} must default-export a plain object (one key per namespace global)`);
  const namespaces: Record<string, NamespaceDeclaration> = Object.create(null);
  for (const [global, raw] of Object.entries(exported)) {
    namespaces[global] = validateNamespace(global, raw);
  }
  return { path: absolute, namespaces };
}

function validateNamespace(global: string, raw: unknown): NamespaceDeclaration {
  if (!isObject(raw)) throw new BindingsModuleError(`${global}: expected an object with "functions"`);
  if (!isObject(raw.functions)) throw new BindingsModuleError(`${global}.functions: expected an object of handlers or declarations`);
  const functions: Record<string, FunctionDeclaration> = Object.create(null);
  for (const [name, decl] of Object.entries(raw.functions)) {
    Object.defineProperty(functions, name, { value: validateFunction(`${global}.functions.${name}`, decl), enumerable: true });
  }
  const ns: NamespaceDeclaration = { functions };
  if (raw.errorClass !== undefined) {
    const e = raw.errorClass;
    if (!isObject(e) || typeof e.name !== 'string' || typeof e.memberNameProperty !== 'string') {
      throw new BindingsModuleError(`${global}.errorClass: expected { name: string, memberNameProperty: string }`);
    }
    ns.errorClass = { name: e.name, memberNameProperty: e.memberNameProperty };
  }
  return ns;
}

function validateFunction(at: string, decl: unknown): FunctionDeclaration {
  if (typeof decl === 'function') return { mock: decl as FunctionDeclaration['mock'], live: decl as FunctionDeclaration['live'] };
  if (!isObject(decl)) throw new BindingsModuleError(`${at}: expected a handler function or { description, input, output, mock, live }`);
  const out: FunctionDeclaration = {};
  if (decl.description !== undefined) {
    if (typeof decl.description !== 'string') throw new BindingsModuleError(`${at}.description: expected a string`);
    out.description = decl.description;
  }
  for (const key of ['input', 'output'] as const) {
    if (decl[key] === undefined) continue;
    if (!isObject(decl[key])) throw new BindingsModuleError(`${at}.${key}: expected a JSON Schema object`);
    out[key] = decl[key] as Record<string, unknown>;
  }
  for (const key of ['mock', 'live'] as const) {
    if (decl[key] === undefined) continue;
    if (typeof decl[key] !== 'function') throw new BindingsModuleError(`${at}.${key}: expected a function`);
    out[key] = decl[key] as FunctionDeclaration['mock'];
  }
  if (out.mock === undefined && out.live === undefined) throw new BindingsModuleError(`${at}: needs a mock or a live handler`);
  return out;
}

// The namespaces a run gets in `mode`; a function with one handler uses it in both modes.
export function namespacesFor(module: BindingsModule, mode: Mode): BindingNamespace[] {
  return Object.entries(module.namespaces).map(([global, ns]) => {
    const functions: BindingNamespace['functions'] = Object.create(null);
    for (const [name, decl] of Object.entries(ns.functions)) {
      const handler = (mode === 'live' ? decl.live ?? decl.mock : decl.mock ?? decl.live) as BindingNamespace['functions'][string];
      Object.defineProperty(functions, name, { value: handler, enumerable: true });
    }
    return ns.errorClass === undefined ? { global, functions } : { global, functions, errorClass: ns.errorClass };
  });
}
