import type { BindingsModule } from '../../bindings/module-format.js';
import { checkLossless } from '../../json/lossless.js';
import type { DescribedFunction, DescribedModule, DescribedNamespace } from '../wire.js';
import { errorMessage } from '../../output/error-message.js';

// A schema as plain lossless JSON, or undefined (with a warning) when the module's object is not one.
function jsonSchema(schema: unknown, at: string, warn: (message: string) => void): Record<string, unknown> | undefined {
  if (schema === undefined) return undefined;
  let copy: unknown;
  try {
    // drops undefined members and functions the way a JSON Schema document would never hold them
    copy = JSON.parse(JSON.stringify(schema));
  } catch (error) {
    warn(`${at}: the schema cannot be shown (${errorMessage(error)})`);
    return undefined;
  }
  const check = checkLossless(copy);
  if (!check.ok || copy === null || typeof copy !== 'object' || Array.isArray(copy)) {
    warn(`${at}: the schema cannot be shown (${check.ok ? 'not an object' : check.reason})`);
    return undefined;
  }
  return copy as Record<string, unknown>;
}

// What the runtime may know of a loaded module: names, descriptions, schemas, error classes; never a handler.
export function describeModule(module: BindingsModule, warn: (message: string) => void): DescribedModule {
  const namespaces: Record<string, DescribedNamespace> = {};
  for (const [global, ns] of Object.entries(module.namespaces)) {
    const functions: Record<string, DescribedFunction> = {};
    for (const [name, declaration] of Object.entries(ns.functions)) {
      const at = `${global}.${name}`;
      const fn: DescribedFunction = {};
      if (typeof declaration.description === 'string') fn.description = declaration.description;
      const input = jsonSchema(declaration.input, `${at}.input`, warn);
      const output = jsonSchema(declaration.output, `${at}.output`, warn);
      if (input !== undefined) fn.input = input;
      if (output !== undefined) fn.output = output;
      if (declaration.returns !== undefined) fn.returns = declaration.returns;
      if (declaration.approval !== undefined) fn.approval = declaration.approval;
      // a function may be called `__proto__`: an own key, never the object's prototype
      Object.defineProperty(functions, name, { value: fn, enumerable: true, writable: true, configurable: true });
    }
    const described: DescribedNamespace = { functions };
    if (ns.errorClass !== undefined)
      described.errorClass = { name: ns.errorClass.name, memberNameProperty: ns.errorClass.memberNameProperty };
    if (ns.mcp !== undefined) described.mcp = true;
    if (ns.toolsUnlisted === true) described.toolsUnlisted = true;
    if (ns.problem !== undefined) described.problem = ns.problem;
    if (ns.unavailable !== undefined) described.unavailable = { ...ns.unavailable };
    namespaces[global] = described;
  }
  return { path: module.path, namespaces };
}
