// Shared JSON Schema plumbing for both SDK renderers: local `$ref`s, cycles and nesting limits.
export type Schema = Record<string, unknown> | boolean;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

// A subschema as found (anything but an object or a boolean allows any value).
export const asSchema = (s: unknown): Schema => (isObject(s) || typeof s === 'boolean' ? s : true);

// A union's members: `anyOf`, else `oneOf` (both render as a union: a type cannot say "exactly one").
export function alternativesOf(schema: Record<string, unknown>): unknown[] | undefined {
  return Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
}

// A tuple's members: draft 2020-12 `prefixItems`, or draft-07 tuple `items`.
export function tupleItems(schema: Record<string, unknown>): unknown[] | undefined {
  return Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
}

// Deeper schemas render as the catch-all JSON type (CPython also caps bracket nesting at 200).
export const MAX_SCHEMA_DEPTH = 24;

export interface WalkContext {
  root: Record<string, unknown>;
  // `$ref`s being expanded right now: a ref met again is recursive and renders as the catch-all type
  expanding: string[];
  depth: number;
}

export function newContext(root: Record<string, unknown>): WalkContext {
  return { root, expanding: [], depth: 0 };
}

// Resolves a local JSON pointer ref (`#/$defs/X`, `#/definitions/X`); anything else is unsupported.
export function resolveRef(ctx: WalkContext, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  if (ref === '#') return ctx.root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = ctx.root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = node[key];
  }
  return isObject(node) || typeof node === 'boolean' ? node : undefined;
}

// The JSON types a schema's `type` keyword allows (empty: not constrained by `type`).
export function typeList(schema: Record<string, unknown>): string[] {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return [];
}

export function isObjectSchema(schema: Record<string, unknown>): boolean {
  const types = typeList(schema);
  return (
    (types.length === 1 && types[0] === 'object') ||
    (types.length === 0 && (isObject(schema.properties) || isObject(schema.additionalProperties)))
  );
}

export function requiredSet(schema: Record<string, unknown>): Set<string> {
  return new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  );
}

// Property names in lexicographic order (byte-stable output regardless of how the schema was written).
export function propertyEntries(schema: Record<string, unknown>): [string, Schema][] {
  const props = isObject(schema.properties) ? schema.properties : {};
  return Object.keys(props)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k): [string, Schema] => [k, asSchema(props[k])]);
}

export function description(schema: Schema): string | undefined {
  return isObject(schema) && typeof schema.description === 'string' && schema.description.trim().length > 0
    ? schema.description
    : undefined;
}

// An object schema with no required property lets the program omit the argument (`tools.list()`).
export function argsOmittable(schema: Record<string, unknown> | undefined): boolean {
  if (schema === undefined) return true;
  return isObjectSchema(schema) && requiredSet(schema).size === 0;
}

// Lone surrogates cannot be written to a UTF-8 file; comments show U+FFFD in their place.
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

// Description text normalized for comments: well-formed, no trailing spaces, no leading/trailing blank lines.
export function docLines(text: string): string[] {
  return wellFormed(text)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .join('\n')
    .replace(/^\n+|\n+$/g, '')
    .split('\n');
}
