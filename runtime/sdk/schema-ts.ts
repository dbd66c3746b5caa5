import {
  alternativesOf,
  asSchema,
  description,
  docLines,
  isObjectSchema,
  MAX_SCHEMA_DEPTH,
  propertyEntries,
  requiredSet,
  resolveRef,
  tupleItems,
  typeList,
  type Schema,
  type WalkContext,
} from './schema-walk.js';

export const TS_JSON = 'JsonValue';

const TS_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// A property or member name as TypeScript source: bare when an ASCII identifier, JSON-quoted otherwise.
export function tsKey(name: string): string {
  // `new(...)` would be a construct signature in a type literal, `constructor` reads as one
  return TS_IDENTIFIER.test(name) && name !== 'new' && name !== 'constructor' ? name : JSON.stringify(name);
}

// A JSDoc block at `indent`; `*/` inside the text cannot end the comment early.
export function tsDoc(text: string | undefined, indent: string): string[] {
  if (text === undefined) return [];
  const lines = docLines(text).map((l) => l.replace(/\*\//g, '*\\/'));
  if (lines.length === 1) return [`${indent}/** ${lines[0]} */`];
  return [`${indent}/**`, ...lines.map((l) => (l.length > 0 ? `${indent} * ${l}` : `${indent} *`)), `${indent} */`];
}

const scalarLiteral = (v: unknown): string | undefined =>
  v === null ||
  typeof v === 'boolean' ||
  typeof v === 'string' ||
  (typeof v === 'number' && Number.isFinite(v) && !Object.is(v, -0))
    ? JSON.stringify(v)
    : undefined;

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes(TS_JSON)) return TS_JSON;
  if (unique.length === 0) return 'never';
  return unique.join(' | ');
}

// Parenthesizes a type with a top-level `|` or `&` used as an array element or intersection member.
function wrap(t: string): string {
  let depth = 0;
  let quote = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === '"') quote = false;
    } else if (c === '"') quote = true;
    else if (c === '{' || c === '[' || c === '(' || c === '<') depth++;
    else if (c === '}' || c === ']' || c === ')' || c === '>') depth--;
    else if (depth === 0 && (c === '|' || c === '&')) return `(${t})`;
  }
  return t;
}

// A TypeScript type for a JSON Schema; constructs it cannot express render as `JsonValue` (any JSON), never `any`.
export function tsType(schema: Schema, ctx: WalkContext, indent: string): string {
  if (schema === true) return TS_JSON;
  if (schema === false) return 'never';
  if (ctx.depth >= MAX_SCHEMA_DEPTH) return TS_JSON;
  ctx.depth++;
  try {
    return withNull(schema, tsTypeInner(schema, ctx, indent));
  } finally {
    ctx.depth--;
  }
}

// OpenAPI-style `nullable: true` adds null.
function withNull(schema: Record<string, unknown>, t: string): string {
  if (schema.nullable !== true || t === TS_JSON || t === 'null') return t;
  return `${t} | null`;
}

function tsTypeInner(schema: Record<string, unknown>, ctx: WalkContext, indent: string): string {
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const target = ctx.expanding.includes(ref) ? undefined : resolveRef(ctx, ref);
    if (target === undefined) return TS_JSON;
    ctx.expanding.push(ref);
    try {
      return tsType(target, ctx, indent);
    } finally {
      ctx.expanding.pop();
    }
  }
  if ('const' in schema) return scalarLiteral(schema.const) ?? TS_JSON;
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => scalarLiteral(v) ?? TS_JSON));
  const alternatives = alternativesOf(schema);
  if (alternatives !== undefined) return union(alternatives.map((s) => tsType(asSchema(s), ctx, indent)));
  if (Array.isArray(schema.allOf)) {
    const parts = [...new Set(schema.allOf.map((s) => tsType(asSchema(s), ctx, indent)).filter((t) => t !== TS_JSON))];
    return parts.length === 0 ? TS_JSON : parts.map(wrap).join(' & ');
  }
  const types = typeList(schema);
  if (types.length === 0) return isObjectSchema(schema) ? objectType(schema, ctx, indent) : TS_JSON;
  return union(types.map((t) => typeFor(t, schema, ctx, indent)));
}

function typeFor(type: string, schema: Record<string, unknown>, ctx: WalkContext, indent: string): string {
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
      return arrayType(schema, ctx, indent);
    case 'object':
      return objectType(schema, ctx, indent);
    default:
      return TS_JSON;
  }
}

function arrayType(schema: Record<string, unknown>, ctx: WalkContext, indent: string): string {
  const tuple = tupleItems(schema);
  if (tuple !== undefined) {
    const rest = Array.isArray(schema.prefixItems) ? schema.items : schema.additionalItems;
    const members = tuple.map((s) => tsType(asSchema(s), ctx, indent));
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const shown = members.map((m, i) => (i < min ? m : `${m}?`));
    if (rest === false) return `[${shown.join(', ')}]`;
    return `[${[...shown, `...${wrap(tsType(asSchema(rest ?? true), ctx, indent))}[]`].join(', ')}]`;
  }
  return `${wrap(tsType(asSchema(schema.items ?? true), ctx, indent))}[]`;
}

function objectType(schema: Record<string, unknown>, ctx: WalkContext, indent: string): string {
  const props = propertyEntries(schema);
  const extra = schema.additionalProperties;
  const inner = `${indent}  `;
  if (props.length === 0) {
    if (extra === false) return 'Record<string, never>';
    return `{ [key: string]: ${tsType(asSchema(extra ?? true), ctx, inner)} }`;
  }
  const required = requiredSet(schema);
  const lines = ['{'];
  for (const [key, prop] of props) {
    lines.push(...tsDoc(description(prop), inner));
    lines.push(`${inner}${tsKey(key)}${required.has(key) ? '' : '?'}: ${tsType(prop, ctx, inner)};`);
  }
  lines.push(`${indent}}`);
  const closed = lines.join('\n');
  // JSON Schema objects are open unless `additionalProperties: false`; extra keys may be any JSON
  return extra === false ? closed : `${closed} & { [key: string]: ${TS_JSON} }`;
}
