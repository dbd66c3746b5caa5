import type { ErrorClassSpec } from '../api.js';
import { identifierProblem, memberPropertyProblem } from '../contract/identifiers.js';
import { BindingsModuleError, type CallPolicy, type FunctionDeclaration, type McpServerConfig } from './module-format.js';

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export type RawNamespace =
  | { kind: 'handlers'; errorClass?: ErrorClassSpec; functions: Record<string, FunctionDeclaration> }
  | { kind: 'mcp'; errorClass?: ErrorClassSpec; mcp: McpServerConfig; overrides: Record<string, FunctionDeclaration> };

const FUNCTION_KEYS = new Set(['description', 'input', 'output', 'mock', 'live', 'timeoutMs', 'latencyMs', 'failWith', 'failRate']);
const MCP_OVERRIDE_KEYS = new Set(['description', 'mock', 'timeoutMs', 'latencyMs', 'failWith', 'failRate']);

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
  const errorClass = ns.errorClass === undefined ? undefined : validateErrorClass(`${global}.errorClass`, ns.errorClass);
  for (const key of Object.keys(ns)) {
    if (!['errorClass', 'functions', 'mcp'].includes(key)) fail(`${global}.${key}`, 'unknown key (expected errorClass, functions or mcp)');
  }
  if (ns.mcp !== undefined) {
    const mcp = validateMcp(`${global}.mcp`, ns.mcp);
    const overrides: Record<string, FunctionDeclaration> = Object.create(null);
    if (ns.functions !== undefined) {
      if (!isObject(ns.functions)) fail(`${global}.functions`, 'expected an object of per-tool overrides');
      for (const [name, decl] of Object.entries(ns.functions as Record<string, unknown>)) {
        define(overrides, name, validateFunction(`${global}.functions.${name}`, decl, MCP_OVERRIDE_KEYS, false));
      }
    }
    return { kind: 'mcp', mcp, overrides, ...(errorClass ? { errorClass } : {}) };
  }
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
    if (seen.has(ns.errorClass.name)) fail(`${global}.errorClass.name`, `"${ns.errorClass.name}" collides with another global or error class`);
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

function validateMcp(at: string, raw: unknown): McpServerConfig {
  if (!isObject(raw)) fail(at, 'expected { command, args?, env?, cwd? }');
  const m = raw as Record<string, unknown>;
  if (typeof m.command !== 'string' || m.command.length === 0) fail(`${at}.command`, 'expected the server executable as a non-empty string');
  const config: McpServerConfig = { command: m.command as string };
  if (m.args !== undefined) {
    if (!Array.isArray(m.args) || !m.args.every((a) => typeof a === 'string')) fail(`${at}.args`, 'expected an array of strings');
    config.args = [...(m.args as string[])];
  }
  if (m.env !== undefined) {
    if (!isObject(m.env) || !Object.values(m.env).every((v) => typeof v === 'string')) fail(`${at}.env`, 'expected an object of string values');
    config.env = { ...(m.env as Record<string, string>) };
  }
  if (m.cwd !== undefined) {
    if (typeof m.cwd !== 'string') fail(`${at}.cwd`, 'expected a directory path');
    config.cwd = m.cwd as string;
  }
  for (const key of Object.keys(m))
    if (!['command', 'args', 'env', 'cwd'].includes(key)) fail(`${at}.${key}`, 'unknown key (expected command, args, env or cwd)');
  return config;
}

function validateFunction(at: string, decl: unknown, allowed: ReadonlySet<string>, needsHandler: boolean): FunctionDeclaration {
  if (typeof decl === 'function') {
    const handler = decl as FunctionDeclaration['mock'];
    return needsHandler ? { mock: handler, live: handler } : { mock: handler };
  }
  if (!isObject(decl)) fail(at, `expected ${needsHandler ? 'a handler function or ' : ''}{ ${[...allowed].join(', ')} }`);
  const d = decl as Record<string, unknown>;
  for (const key of Object.keys(d)) if (!allowed.has(key)) fail(`${at}.${key}`, `unknown key (expected one of ${[...allowed].join(', ')})`);
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
  if (d.latencyMs !== undefined) {
    if (typeof d.latencyMs !== 'number' || !Number.isFinite(d.latencyMs) || d.latencyMs < 0) fail(`${at}.latencyMs`, 'expected a number ≥ 0 (milliseconds)');
    policy.latencyMs = d.latencyMs as number;
  }
  if (d.failWith !== undefined) {
    if (typeof d.failWith !== 'string') fail(`${at}.failWith`, 'expected the failure message as a string');
    policy.failWith = d.failWith as string;
  }
  if (d.failRate !== undefined) {
    if (typeof d.failRate !== 'number' || !(d.failRate >= 0 && d.failRate <= 1)) fail(`${at}.failRate`, 'expected a number between 0 and 1');
    policy.failRate = d.failRate as number;
  }
  return policy;
}
