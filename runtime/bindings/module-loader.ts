import fs from 'node:fs';
import path from 'node:path';
import type { BindingNamespace } from '../api.js';
import { startStdioServer } from './mcp/stdio-start.js';
import { BindingsModuleError, type BindingsModule, type Mode, type WarningSink } from './module-format.js';
import { importBindingsFile } from './module-import.js';
import { isObject } from './module-validate.js';
import { readJsonBindings, resolveBindings, servedNamespaces, type NamespaceOptions } from './module-resolve.js';
import { errorMessage } from '../output/error-message.js';

export { defineBindings } from './public.js';
export { acceptsOmittedArgs, schemaChecks, type Compiled } from './module-resolve.js';

export interface LoadOptions {
  // 'optional' (replays): an MCP server that cannot start leaves its namespace without a tool list instead of failing
  mcp?: 'required' | 'optional';
  onWarning?: WarningSink;
}

// Loads a bindings module (code, bundled and imported; or JSON), validates its shape and schemas, and starts its MCP
// servers (kept until `dispose`).
export async function loadBindingsModule(file: string, options: LoadOptions = {}): Promise<BindingsModule> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) throw new BindingsModuleError(`bindings module not found: ${file}`);
  let exported: unknown;
  if (absolute.endsWith('.json')) {
    exported = readJsonBindings(file, fs.readFileSync(absolute, 'utf8'));
  } else {
    try {
      const mod = (await importBindingsFile(absolute)).module;
      exported = isObject(mod) ? mod.default : undefined;
    } catch (error) {
      throw new BindingsModuleError(`bindings module ${file} failed to load: ${errorMessage(error)}`);
    }
  }
  if (!isObject(exported))
    throw new BindingsModuleError(
      `bindings module ${file} must default-export a plain object (one key per namespace global)`,
    );
  const moduleDir = path.dirname(absolute);
  return resolveBindings(absolute, exported, {
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    onWarning: options.onWarning ?? defaultWarning,
    // a module is bundled to a temp file before import, so a server script beside it is found relative to its folder
    stdio: (config) => startStdioServer({ ...config, cwd: path.resolve(moduleDir, config.cwd ?? '.') }),
    env: process.env,
  });
}

export interface HostNamespaceOptions extends NamespaceOptions {
  onWarning?: WarningSink;
}

const defaultWarning: WarningSink = (message) => {
  process.stderr.write(`ptc: warning: ${message}\n`);
};

// The namespaces a run gets in `mode` (module-resolve.ts), warnings to stderr unless the caller takes them.
export function namespacesFor(
  module: BindingsModule,
  mode: Mode,
  options: HostNamespaceOptions = {},
): BindingNamespace[] {
  return servedNamespaces(module, mode, { ...options, onWarning: options.onWarning ?? defaultWarning });
}
