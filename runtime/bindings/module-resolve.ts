import type { BindingNamespace } from '../api.js';
import { hashSeed, seededRandom } from './faults.js';
import type { ResultMode } from './mcp/map-result.js';
import { McpServerSession, type McpTool, type StdioStarter } from './mcp/mcp-server.js';
import { handler, resourceListDeclaration, resourceReadDeclaration } from './mcp/resource-functions.js';
import {
  BindingsModuleError,
  type BindingsModule,
  type FunctionDeclaration,
  type Mode,
  type NamespaceDeclaration,
  type WarningSink,
} from './module-format.js';
import { checkNameCollisions, isObject, validateNamespace, type RawNamespace } from './module-validate.js';
import { SchemaCompiler, type SchemaCheck } from './schema-check.js';
import { DEFAULT_CALL_TIMEOUT_MS, serveFunction } from './serve-function.js';
import { errorMessage } from '../output/error-message.js';

// A bindings module once its file was read: validated, its MCP servers started and listed, its schemas compiled, and
// the functions a run gets. Nothing here needs Node (the browser's web extension loads JSON modules with it); the
// file itself is read by module-loader.ts on the desktop and by the web extension through the editor.

export interface Compiled {
  input: SchemaCheck | undefined;
  output: SchemaCheck | undefined;
  omittedIsEmptyObject: boolean;
}

// Compiled schemas per declaration, made once at load so a bad schema fails the load, not a call.
const compiledByDeclaration = new WeakMap<FunctionDeclaration, Compiled>();

export interface ResolveOptions {
  // 'optional' (replays): an MCP server that cannot start leaves its namespace without a tool list instead of failing
  mcp?: 'required' | 'optional';
  onWarning: WarningSink;
  // how a stdio server starts (its `cwd` already resolved against the module's folder); absent in a browser
  stdio: StdioStarter | undefined;
  // what `${env:NAME}` in a remote server's headers reads
  env: Readonly<Record<string, string | undefined>>;
}

// A module's default export (`file` names it in messages) made a loaded module; its MCP servers are kept until
// `dispose`, and are stopped at once if the load fails.
export async function resolveBindings(
  file: string,
  exported: Record<string, unknown>,
  options: ResolveOptions,
): Promise<BindingsModule> {
  const raws: [string, RawNamespace][] = Object.entries(exported).map(([global, raw]) => [
    global,
    validateNamespace(global, raw),
  ]);
  checkNameCollisions(raws);
  const sessions: McpServerSession[] = [];
  const dispose = async (): Promise<void> => {
    await Promise.all(sessions.map((s) => s.dispose()));
  };
  try {
    const namespaces: Record<string, NamespaceDeclaration> = Object.create(null);
    const compiler = new SchemaCompiler();
    // MCP servers start side by side; a slow server should not serialize the others
    const resolved = await Promise.all(
      raws.map(async ([global, raw]) => [global, await resolveNamespace(global, raw, sessions, options)] as const),
    );
    for (const [global, ns] of resolved) {
      for (const [name, decl] of Object.entries(ns.functions))
        compileDeclaration(compiler, `${global}.functions.${name}`, decl);
      namespaces[global] = ns;
    }
    return { path: file, namespaces, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

// A JSON bindings module (`*.bindings.json`): the same object a code module default-exports, with no code in it, so
// its namespaces can only be MCP servers (the form the browser can load: a handler is code it will not run).
export function readJsonBindings(file: string, text: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new BindingsModuleError(`bindings module ${file} is not valid JSON: ${errorMessage(error)}`);
  }
  if (!isObject(parsed))
    throw new BindingsModuleError(`bindings module ${file} must be a JSON object (one key per namespace global)`);
  for (const [global, ns] of Object.entries(parsed))
    if (isObject(ns) && ns.mcp === undefined)
      throw new BindingsModuleError(
        `${global}: a JSON bindings module can only name MCP servers ("mcp"): handlers are code, which needs a .ts or .js module`,
      );
  return parsed;
}

async function resolveNamespace(
  global: string,
  raw: RawNamespace,
  sessions: McpServerSession[],
  options: ResolveOptions,
): Promise<NamespaceDeclaration> {
  const base = raw.errorClass === undefined ? {} : { errorClass: raw.errorClass };
  if (raw.kind === 'handlers') return { ...base, functions: raw.functions };
  const warn = options.onWarning;
  const session = new McpServerSession({
    label: global,
    config: raw.mcp,
    onWarning: (message) => warn(message),
    stdio: options.stdio,
    env: options.env,
  });
  sessions.push(session);
  let tools: McpTool[];
  try {
    tools = await session.listTools();
  } catch (error) {
    if (options.mcp !== 'optional') throw new BindingsModuleError(`${global}: ${errorMessage(error)}`);
    await session.dispose();
    // no warning here: whoever replays says it (session/replay-setup.ts), from `problem`
    const functions: Record<string, FunctionDeclaration> = Object.create(null);
    for (const [name, override] of Object.entries(raw.overrides)) define(functions, override.name ?? name, override);
    return { ...base, functions, mcp: raw.mcp, toolsUnlisted: true, problem: `${global}: ${errorMessage(error)}` };
  }
  return mcpNamespace({ global, raw, session, tools, warn, base });
}

function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

// The functions of an MCP namespace: the server's tools the module keeps (renamed, overridden), each served by the
// session; a tool the program cannot call is listed as unavailable with its reason, and the rest still work.
function mcpNamespace(options: {
  global: string;
  raw: Extract<RawNamespace, { kind: 'mcp' }>;
  session: McpServerSession;
  tools: McpTool[];
  warn: WarningSink;
  base: Pick<NamespaceDeclaration, 'errorClass'>;
}): NamespaceDeclaration {
  const { global, raw, session, tools, warn } = options;
  const listed = new Set(tools.map((t) => t.name));
  const known = (): string => [...listed].sort().join(', ') || 'no tools';
  for (const name of Object.keys(raw.overrides)) {
    if (!listed.has(name))
      throw new BindingsModuleError(
        `${global}.functions.${name}: the MCP server has no tool "${name}" (it has: ${known()})`,
      );
  }
  for (const name of raw.options.include ?? []) {
    if (!listed.has(name))
      throw new BindingsModuleError(`${global}.include: the MCP server has no tool "${name}" (it has: ${known()})`);
  }
  for (const name of raw.options.exclude ?? [])
    if (!listed.has(name)) warn(`${global}.exclude: the MCP server has no tool "${name}"`);
  const include = raw.options.include === undefined ? undefined : new Set(raw.options.include);
  const exclude = new Set(raw.options.exclude ?? []);
  const functions: Record<string, FunctionDeclaration> = Object.create(null);
  const unavailable: Record<string, string> = Object.create(null);
  const compiler = new SchemaCompiler();
  const claim = (name: string, by: string): void => {
    if (
      Object.prototype.hasOwnProperty.call(functions, name) ||
      Object.prototype.hasOwnProperty.call(unavailable, name)
    )
      throw new BindingsModuleError(
        `${global}.${by}: the name "${name}" is already taken by another function of ${global}`,
      );
  };
  for (const tool of tools) {
    if ((include !== undefined && !include.has(tool.name)) || exclude.has(tool.name)) continue;
    const override = raw.overrides[tool.name] ?? {};
    const name = override.name ?? tool.name;
    claim(name, `functions.${tool.name}.name`);
    const leaveOut = (reason: string): void => {
      unavailable[name] = reason;
      warn(`${global}.${name}: left out: ${reason}`);
    };
    if (tool.unavailable !== undefined && override.input === undefined) {
      leaveOut(tool.unavailable);
      continue;
    }
    const { name: _rename, result: chosen, ...policy } = override;
    const output = override.output ?? tool.outputSchema;
    const mode: ResultMode = chosen ?? (output !== undefined ? 'structured' : (raw.options.result ?? 'content'));
    const decl: FunctionDeclaration = {
      ...policy,
      live: handler((args, context) =>
        session.call(tool.name, args, { signal: context.signal, mode, onProgress: (note) => context.progress(note) }),
      ),
    };
    const description = override.description ?? tool.description;
    if (description !== undefined) decl.description = description;
    const input = override.input ?? tool.inputSchema;
    if (input !== undefined) decl.input = input;
    if (output !== undefined && (mode === 'structured' || mode === 'json')) decl.output = output;
    if (mode === 'content') decl.returns = 'mcp-content';
    if (mode === 'text') decl.returns = 'text';
    try {
      compileDeclaration(compiler, `${global}.${name}`, decl);
    } catch (error) {
      leaveOut(
        errorMessage(error)
          .replace(`${global}.${name}.`, 'its ')
          .replace(/^its input:/, 'its inputSchema:')
          .replace(/^its output:/, 'its outputSchema:'),
      );
      continue;
    }
    define(functions, name, decl);
  }
  const resources = raw.options.resources;
  if (resources !== undefined) {
    claim(resources.list, 'resources.list');
    define(functions, resources.list, resourceListDeclaration(session));
    claim(resources.read, 'resources.read');
    define(functions, resources.read, resourceReadDeclaration(session));
  }
  const ns: NamespaceDeclaration = { ...options.base, functions, mcp: raw.mcp };
  if (Object.keys(unavailable).length > 0) ns.unavailable = unavailable;
  return ns;
}

function compileDeclaration(compiler: SchemaCompiler, at: string, decl: FunctionDeclaration): void {
  if (compiledByDeclaration.has(decl)) return;
  const compile = (key: 'input' | 'output'): SchemaCheck | undefined => {
    const schema = decl[key];
    if (schema === undefined) return undefined;
    try {
      return compiler.compile(schema);
    } catch (error) {
      throw new BindingsModuleError(`${at}.${key}: ${errorMessage(error)}`);
    }
  };
  compiledByDeclaration.set(decl, {
    input: compile('input'),
    output: compile('output'),
    omittedIsEmptyObject: acceptsOmittedArgs(decl.input),
  });
}

// An object schema with no required property lets the program call `tools.list()` with no argument.
export function acceptsOmittedArgs(schema: Record<string, unknown> | undefined): boolean {
  if (schema === undefined) return false;
  const isObjectSchema = schema.type === 'object' || (schema.type === undefined && isObject(schema.properties));
  const required = schema.required;
  return isObjectSchema && (!Array.isArray(required) || required.length === 0);
}

// The compiled schema checks of one declared function (compiled on first use for declarations not loaded here).
export function schemaChecks(declaration: FunctionDeclaration): Compiled {
  let compiled = compiledByDeclaration.get(declaration);
  if (compiled === undefined) {
    compileDeclaration(new SchemaCompiler(), 'function', declaration);
    compiled = compiledByDeclaration.get(declaration) as Compiled;
  }
  return compiled;
}

export interface NamespaceOptions {
  // seeds fault injection (`failRate`); the same seed fails the same calls
  seed?: number;
  // per-call deadline for functions without their own `timeoutMs`
  defaultTimeoutMs?: number;
}

// The namespaces a run gets in `mode`: every function validated, guarded by its deadline and (mock) faults.
export function servedNamespaces(
  module: BindingsModule,
  mode: Mode,
  options: NamespaceOptions & { onWarning: WarningSink },
): BindingNamespace[] {
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
  return Object.entries(module.namespaces).map(([global, ns]) => {
    const functions: BindingNamespace['functions'] = Object.create(null);
    for (const [name, declaration] of Object.entries(ns.functions)) {
      const compiled = schemaChecks(declaration);
      const fn = serveFunction({
        global,
        name,
        declaration,
        mode,
        ...compiled,
        random: seededRandom(hashSeed(seed, `${global}.${name}`)),
        defaultTimeoutMs: options.defaultTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        onWarning: options.onWarning,
      });
      Object.defineProperty(functions, name, { value: fn, enumerable: true });
    }
    return ns.errorClass === undefined ? { global, functions } : { global, functions, errorClass: ns.errorClass };
  });
}
