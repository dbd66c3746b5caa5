import type { BindingsModule } from '../../runtime/bindings/module-format.js';
import type { Language } from '../../runtime/protocol/run-result.js';

export interface FunctionInfo {
  name: string;
  description: string | undefined;
  // the declaration shown in completions and hovers, in the cell's language
  declaration: Record<Language, string>;
}

export interface GlobalInfo {
  global: string;
  errorClass: string | undefined;
  functions: FunctionInfo[];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_DEPTH = 4;

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);

// A compact TypeScript type for a JSON Schema (enough for a signature line; the SDK text is the full truth).
export function schemaToTs(schema: unknown, depth = 0): string {
  if (!isSchema(schema) || depth > MAX_DEPTH) return 'unknown';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ') || 'never';
  if ('const' in schema) return JSON.stringify(schema.const);
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives !== undefined) return alternatives.map((s) => schemaToTs(s, depth + 1)).join(' | ') || 'unknown';
  const type = schema.type;
  if (Array.isArray(type)) return type.map((t) => schemaToTs({ ...schema, type: t }, depth)).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(schemaToTs(schema.items, depth + 1))}[]`;
    case 'object': {
      const props = isSchema(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
      const fields = Object.entries(props).map(([k, v]) => `${IDENTIFIER.test(k) ? k : JSON.stringify(k)}${required.has(k) ? '' : '?'}: ${schemaToTs(v, depth + 1)}`);
      if (schema.additionalProperties !== false && fields.length === 0) return 'Record<string, unknown>';
      return `{ ${fields.join('; ')} }`;
    }
    default:
      return 'unknown';
  }
}

function wrap(type: string): string {
  return /[|\s]/.test(type) && !type.startsWith('{') ? `(${type})` : type;
}

function pyName(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

// What completions and hovers offer for each namespace global of a bindings module.
export function completionModel(module: BindingsModule): GlobalInfo[] {
  return Object.entries(module.namespaces)
    .map(([global, ns]) => ({
      global,
      errorClass: ns.errorClass?.name,
      functions: Object.entries(ns.functions)
        .map(([name, decl]) => {
          const args = schemaToTs(decl.input);
          const result = decl.output === undefined ? 'unknown' : schemaToTs(decl.output);
          const member = IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
          return {
            name,
            description: decl.description,
            declaration: {
              typescript: `${global}${member}(args: ${args}): Promise<${result}>`,
              python: `await ${global}${pyName(name)}(args: dict)  # ${args} -> ${result}`,
            },
          };
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    }))
    .sort((a, b) => (a.global < b.global ? -1 : 1));
}

export type CompletionContext =
  | { kind: 'member'; global: string; prefix: string; bracket: boolean }
  | { kind: 'global'; prefix: string };

// Reads what is being completed from the text before the cursor on its line.
export function completionContext(linePrefix: string): CompletionContext | undefined {
  const bracket = /([A-Za-z_$][\w$]*)\s*\[\s*["']([^"'\\]*)$/.exec(linePrefix);
  if (bracket !== null) return { kind: 'member', global: bracket[1] as string, prefix: bracket[2] as string, bracket: true };
  const member = /([A-Za-z_$][\w$]*)\s*\.\s*([\w$]*)$/.exec(linePrefix);
  if (member !== null) {
    // `a.b.c` completes members of `b`, which is not a namespace global
    const before = linePrefix.slice(0, member.index).trimEnd();
    if (before.endsWith('.')) return undefined;
    return { kind: 'member', global: member[1] as string, prefix: member[2] as string, bracket: false };
  }
  const word = /(?:^|[^\w$.])([A-Za-z_$][\w$]*)$/.exec(linePrefix);
  if (word !== null) return { kind: 'global', prefix: word[1] as string };
  return undefined;
}

// The `global.name` (or `global["name"]`) under a column of a line, for hovers.
export function memberAt(line: string, column: number): { global: string; name: string; start: number; end: number } | undefined {
  const pattern = /([A-Za-z_$][\w$]*)\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\\]*)\3\s*\])/g;
  for (const match of line.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    if (column >= start && column <= end) return { global: match[1] as string, name: (match[2] ?? match[4]) as string, start, end };
  }
  return undefined;
}
