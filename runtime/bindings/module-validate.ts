import type { ErrorClassSpec } from '../api.js';
import { identifierProblem, memberPropertyProblem } from '../contract/identifiers.js';
import { RESULT_MODES, type ResultMode } from './mcp/map-result.js';
import {
  BindingsModuleError,
  type CallPolicy,
  type FunctionDeclaration,
  type McpServerConfig,
} from './module-format.js';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

// A module's override of one MCP tool: the declaration's knobs plus the name the program calls it by and its result
// mode.
export interface McpToolOverride extends FunctionDeclaration {
  name?: string;
  result?: ResultMode;
}

// Namespace-wide choices for an MCP server's tools.
export interface McpNamespaceOptions {
  result?: ResultMode;
  include?: string[];
  exclude?: string[];
  // the program-facing names of the resources functions, when the module asks for them
  resources?: { list: string; read: string };
}

export type RawNamespace =
  | { kind: 'handlers'; errorClass?: ErrorClassSpec; functions: Record<string, FunctionDeclaration> }
  | {
      kind: 'mcp';
      errorClass?: ErrorClassSpec;
      mcp: McpServerConfig;
      options: McpNamespaceOptions;
      overrides: Record<string, McpToolOverride>;
    };

const POLICY_KEYS = ['timeoutMs', 'maxTotalTimeoutMs', 'latencyMs', 'failWith', 'failRate', 'approval'];
const FUNCTION_KEYS = new Set(['description', 'input', 'output', 'mock', 'live', ...POLICY_KEYS]);
const MCP_OVERRIDE_KEYS = new Set(['name', 'description', 'input', 'output', 'result', 'mock', ...POLICY_KEYS]);
const NAMESPACE_KEYS = ['errorClass', 'functions', 'mcp', 'result', 'include', 'exclude', 'resources'];
export const DEFAULT_RESOURCE_FUNCTIONS = { list: 'list_resources', read: 'read_resource' } as const;

const fail = (at: string, problem: string): never => {
  throw new BindingsModuleError(`${at}: ${problem}`);
};

// Checks one namespace of a module's default export, naming the offending key on failure.
export function validateNamespace(global: string, raw: unknown): RawNamespace {
  // the same portable-identifier rules the runtime applies, reported here with the module's key
  const globalProblem = identifierProblem(global);
  if (globalProblem !== undefined) fail(global, `not usable as a program global: ${globalProblem}`);
  if (!isObject(raw)) fail(global, 'expected an object with "functions" (handlers) or "mcp" (an MCP server)');
  const ns = raw as Record<string, unknown>;
  const errorClass =
    ns.errorClass === undefined ? undefined : validateErrorClass(`${global}.errorClass`, ns.errorClass);
  for (const key of Object.keys(ns)) {
    if (!NAMESPACE_KEYS.includes(key)) fail(`${global}.${key}`, `unknown key (expected ${NAMESPACE_KEYS.join(', ')})`);
  }
  if (ns.mcp !== undefined) {
    const mcp = validateMcp(`${global}.mcp`, ns.mcp);
    const overrides: Record<string, McpToolOverride> = Object.create(null);
    if (ns.functions !== undefined) {
      if (!isObject(ns.functions)) fail(`${global}.functions`, 'expected an object of per-tool overrides');
      for (const [name, decl] of Object.entries(ns.functions as Record<string, unknown>)) {
        const at = `${global}.functions.${name}`;
        const override: McpToolOverride = validateFunction(at, decl, MCP_OVERRIDE_KEYS, false);
        if (isObject(decl)) {
          if (decl.name !== undefined) {
            if (typeof decl.name !== 'string') fail(`${at}.name`, 'expected the name the program calls the tool by');
            override.name = decl.name as string;
          }
          if (decl.result !== undefined) override.result = validateResultMode(`${at}.result`, decl.result);
        }
        define(overrides, name, override);
      }
    }
    return {
      kind: 'mcp',
      mcp,
      options: validateMcpOptions(global, ns),
      overrides,
      ...(errorClass ? { errorClass } : {}),
    };
  }
  for (const key of ['result', 'include', 'exclude', 'resources'])
    if (ns[key] !== undefined) fail(`${global}.${key}`, 'only an MCP namespace (with "mcp") takes this key');
  if (!isObject(ns.functions)) fail(`${global}.functions`, 'expected an object of handlers or declarations');
  const functions: Record<string, FunctionDeclaration> = Object.create(null);
  for (const [name, decl] of Object.entries(ns.functions as Record<string, unknown>)) {
    define(functions, name, validateFunction(`${global}.functions.${name}`, decl, FUNCTION_KEYS, true));
  }
  return { kind: 'handlers', functions, ...(errorClass ? { errorClass } : {}) };
}

// Globals and error-class names share the program's scope, so each may appear once across the module.
export function checkNameCollisions(namespaces: readonly [string, RawNamespace][]): void {
  const seen = new Set<string>();
  for (const [global] of namespaces) seen.add(global);
  for (const [global, ns] of namespaces) {
    if (ns.errorClass === undefined) continue;
    if (seen.has(ns.errorClass.name))
      fail(`${global}.errorClass.name`, `"${ns.errorClass.name}" collides with another global or error class`);
    seen.add(ns.errorClass.name);
  }
}

function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function validateErrorClass(at: string, e: unknown): ErrorClassSpec {
  if (!isObject(e) || typeof e.name !== 'string' || typeof e.memberNameProperty !== 'string') {
    fail(at, 'expected { name: string, memberNameProperty: string }');
  }
  const spec = e as { name: string; memberNameProperty: string };
  const nameProblem = identifierProblem(spec.name);
  if (nameProblem !== undefined) fail(`${at}.name`, nameProblem);
  const memberProblem = memberPropertyProblem(spec.memberNameProperty);
  if (memberProblem !== undefined) fail(`${at}.memberNameProperty`, memberProblem);
  return { name: spec.name, memberNameProperty: spec.memberNameProperty };
}

function validateResultMode(at: string, raw: unknown): ResultMode {
  if (typeof raw !== 'string' || !(RESULT_MODES as readonly string[]).includes(raw))
    fail(at, `expected one of ${RESULT_MODES.map((m) => `'${m}'`).join(', ')}`);
  return raw as ResultMode;
}

function stringList(at: string, raw: unknown): string[] {
  if (!Array.isArray(raw) || !raw.every((x) => typeof x === 'string')) fail(at, 'expected an array of tool names');
  return [...(raw as string[])];
}

function validateMcpOptions(global: string, ns: Record<string, unknown>): McpNamespaceOptions {
  const options: McpNamespaceOptions = {};
  if (ns.result !== undefined) options.result = validateResultMode(`${global}.result`, ns.result);
  if (ns.include !== undefined) options.include = stringList(`${global}.include`, ns.include);
  if (ns.exclude !== undefined) options.exclude = stringList(`${global}.exclude`, ns.exclude);
  if (ns.resources === true) options.resources = { ...DEFAULT_RESOURCE_FUNCTIONS };
  else if (isObject(ns.resources)) {
    const r = ns.resources;
    for (const key of Object.keys(r))
      if (key !== 'list' && key !== 'read') fail(`${global}.resources.${key}`, 'unknown key (expected list or read)');
    for (const key of ['list', 'read'] as const)
      if (r[key] !== undefined && typeof r[key] !== 'string')
        fail(`${global}.resources.${key}`, 'expected a function name');
    options.resources = {
      list: (r.list as string | undefined) ?? DEFAULT_RESOURCE_FUNCTIONS.list,
      read: (r.read as string | undefined) ?? DEFAULT_RESOURCE_FUNCTIONS.read,
    };
  } else if (ns.resources !== undefined && ns.resources !== false)
    fail(`${global}.resources`, 'expected true or { list?, read? } (function names)');
  return options;
}

function validateMcp(at: string, raw: unknown): McpServerConfig {
  if (!isObject(raw))
    fail(
      at,
      'expected { command, args?, env?, cwd? } (a stdio server) or { url, headers?, transport? } (a remote one)',
    );
  const m = raw as Record<string, unknown>;
  if (m.url !== undefined) return validateRemote(at, m);
  if (typeof m.command !== 'string' || m.command.length === 0)
    fail(`${at}.command`, 'expected the server executable as a non-empty string (or a url)');
  const config: McpServerConfig = { command: m.command as string };
  if (m.args !== undefined) {
    if (!Array.isArray(m.args) || !m.args.every((a) => typeof a === 'string'))
      fail(`${at}.args`, 'expected an array of strings');
    config.args = [...(m.args as string[])];
  }
  if (m.env !== undefined) {
    if (!isObject(m.env) || !Object.values(m.env).every((v) => typeof v === 'string'))
      fail(`${at}.env`, 'expected an object of string values');
    config.env = { ...(m.env as Record<string, string>) };
  }
  if (m.cwd !== undefined) {
    if (typeof m.cwd !== 'string') fail(`${at}.cwd`, 'expected a directory path');
    config.cwd = m.cwd as string;
  }
  for (const key of Object.keys(m))
    if (!['command', 'args', 'env', 'cwd'].includes(key))
      fail(`${at}.${key}`, 'unknown key (expected command, args, env or cwd)');
  return config;
}

function validateRemote(at: string, m: Record<string, unknown>): McpServerConfig {
  if (typeof m.url !== 'string') fail(`${at}.url`, 'expected the server URL as a string');
  let url: URL | undefined;
  try {
    url = new URL(m.url as string);
  } catch {
    fail(`${at}.url`, 'not a valid URL');
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') fail(`${at}.url`, 'expected an http: or https: URL');
  const config: McpServerConfig = { url: m.url as string };
  if (m.headers !== undefined) {
    if (!isObject(m.headers) || !Object.values(m.headers).every((v) => typeof v === 'string'))
      fail(`${at}.headers`, 'expected an object of string values');
    config.headers = { ...(m.headers as Record<string, string>) };
  }
  if (m.transport !== undefined) {
    if (!['auto', 'streamable-http', 'sse'].includes(m.transport as string))
      fail(`${at}.transport`, "expected 'auto', 'streamable-http' or 'sse'");
    config.transport = m.transport as McpServerConfig['transport'];
  }
  for (const key of Object.keys(m))
    if (!['url', 'headers', 'transport'].includes(key))
      fail(`${at}.${key}`, 'unknown key for a remote server (expected url, headers or transport)');
  return config;
}

function validateFunction(
  at: string,
  decl: unknown,
  allowed: ReadonlySet<string>,
  needsHandler: boolean,
): FunctionDeclaration {
  if (typeof decl === 'function') {
    const handler = decl as FunctionDeclaration['mock'];
    return needsHandler ? { mock: handler, live: handler } : { mock: handler };
  }
  if (!isObject(decl))
    fail(at, `expected ${needsHandler ? 'a handler function or ' : ''}{ ${[...allowed].join(', ')} }`);
  const d = decl as Record<string, unknown>;
  for (const key of Object.keys(d))
    if (!allowed.has(key)) fail(`${at}.${key}`, `unknown key (expected one of ${[...allowed].join(', ')})`);
  const out: FunctionDeclaration = {};
  if (d.description !== undefined) {
    if (typeof d.description !== 'string') fail(`${at}.description`, 'expected a string');
    out.description = d.description as string;
  }
  for (const key of ['input', 'output'] as const) {
    if (d[key] === undefined) continue;
    if (!isObject(d[key])) fail(`${at}.${key}`, 'expected a JSON Schema object');
    out[key] = d[key] as Record<string, unknown>;
  }
  for (const key of ['mock', 'live'] as const) {
    if (d[key] === undefined) continue;
    if (typeof d[key] !== 'function') fail(`${at}.${key}`, 'expected a function');
    out[key] = d[key] as FunctionDeclaration['mock'];
  }
  Object.assign(out, validatePolicy(at, d));
  if (needsHandler && out.mock === undefined && out.live === undefined) fail(at, 'needs a mock or a live handler');
  return out;
}

function validatePolicy(at: string, d: Record<string, unknown>): CallPolicy {
  const policy: CallPolicy = {};
  if (d.timeoutMs !== undefined) {
    if (typeof d.timeoutMs !== 'number' || !Number.isSafeInteger(d.timeoutMs) || d.timeoutMs < 1)
      fail(`${at}.timeoutMs`, 'expected a positive integer (milliseconds)');
    policy.timeoutMs = d.timeoutMs as number;
  }
  if (d.maxTotalTimeoutMs !== undefined) {
    if (
      typeof d.maxTotalTimeoutMs !== 'number' ||
      !Number.isSafeInteger(d.maxTotalTimeoutMs) ||
      d.maxTotalTimeoutMs < 1
    )
      fail(`${at}.maxTotalTimeoutMs`, 'expected a positive integer (milliseconds)');
    policy.maxTotalTimeoutMs = d.maxTotalTimeoutMs as number;
  }
  if (d.latencyMs !== undefined) {
    if (typeof d.latencyMs !== 'number' || !Number.isFinite(d.latencyMs) || d.latencyMs < 0)
      fail(`${at}.latencyMs`, 'expected a number ≥ 0 (milliseconds)');
    policy.latencyMs = d.latencyMs as number;
  }
  if (d.failWith !== undefined) {
    if (typeof d.failWith !== 'string') fail(`${at}.failWith`, 'expected the failure message as a string');
    policy.failWith = d.failWith as string;
  }
  if (d.failRate !== undefined) {
    if (typeof d.failRate !== 'number' || !(d.failRate >= 0 && d.failRate <= 1))
      fail(`${at}.failRate`, 'expected a number between 0 and 1');
    policy.failRate = d.failRate as number;
  }
  if (d.approval !== undefined) {
    if (d.approval === true || d.approval === false) policy.approval = d.approval ? 'ask' : 'allow';
    else if (d.approval === 'ask' || d.approval === 'allow' || d.approval === 'deny') policy.approval = d.approval;
    else fail(`${at}.approval`, "expected true, false, 'ask', 'allow' or 'deny'");
  }
  return policy;
}
