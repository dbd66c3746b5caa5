import { isPyIdentifier, NameRegistry, pascal, pyDocText, pyString } from './python-names.js';
import {
  alternativesOf,
  asSchema,
  description,
  docLines,
  isObject,
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

export const PY_JSON = 'JsonValue';

// Collects what a Python stub needs while types are rendered: TypedDict definitions (nested first) and typing imports.
export class PyStubContext {
  readonly definitions: string[] = [];
  readonly imports = new Set<string>();
  constructor(readonly names: NameRegistry) {}
}

interface PyWalk extends WalkContext {
  stub: PyStubContext;
  // a `$ref` rendered once per function keeps its TypedDict name
  refs: Map<string, string>;
}

export function newPyWalk(root: Record<string, unknown>, stub: PyStubContext): PyWalk {
  return { root, expanding: [], depth: 0, stub, refs: new Map() };
}

function literalOf(v: unknown): string | undefined {
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  return undefined;
}

// Union of member types: JsonValue absorbs everything, `None` goes last, a single other member reads as Optional.
function union(walk: PyWalk, parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.includes(PY_JSON) || unique.length === 0) return PY_JSON;
  const others = unique.filter((p) => p !== 'None');
  if (others.length === unique.length) {
    if (others.length === 1) return others[0] as string;
    walk.stub.imports.add('Union');
    return `Union[${others.join(', ')}]`;
  }
  if (others.length === 0) return 'None';
  if (others.length === 1) {
    walk.stub.imports.add('Optional');
    return `Optional[${others[0] as string}]`;
  }
  walk.stub.imports.add('Union');
  return `Union[${[...others, 'None'].join(', ')}]`;
}

function literalUnion(walk: PyWalk, values: unknown[]): string {
  const literals: string[] = [];
  const rest: string[] = [];
  for (const v of values) {
    if (v === null) rest.push('None');
    else {
      const lit = literalOf(v);
      if (lit !== undefined) literals.push(lit);
      else rest.push(typeof v === 'number' ? 'float' : PY_JSON);
    }
  }
  if (literals.length > 0) {
    walk.stub.imports.add('Literal');
    rest.unshift(`Literal[${[...new Set(literals)].join(', ')}]`);
  }
  return union(walk, rest);
}

// A Python annotation for a JSON Schema; object schemas with properties become TypedDicts named after `hint`.
export function pyType(schema: Schema, walk: PyWalk, hint: string): string {
  if (typeof schema === 'boolean') return PY_JSON;
  if (walk.depth >= MAX_SCHEMA_DEPTH) return PY_JSON;
  walk.depth++;
  try {
    const t = pyTypeInner(schema, walk, hint);
    return schema.nullable === true ? union(walk, [t, 'None']) : t;
  } finally {
    walk.depth--;
  }
}

function pyTypeInner(schema: Record<string, unknown>, walk: PyWalk, hint: string): string {
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref;
    const known = walk.refs.get(ref);
    if (known !== undefined) return known;
    const target = walk.expanding.includes(ref) ? undefined : resolveRef(walk, ref);
    if (target === undefined) return PY_JSON;
    const named = /([A-Za-z0-9_]+)$/.exec(ref)?.[1];
    walk.expanding.push(ref);
    try {
      const t = pyType(target, walk, named === undefined ? hint : pascal(named, hint));
      walk.refs.set(ref, t);
      return t;
    } finally {
      walk.expanding.pop();
    }
  }
  if ('const' in schema) return literalUnion(walk, [schema.const]);
  if (Array.isArray(schema.enum)) return literalUnion(walk, schema.enum);
  const alternatives = alternativesOf(schema);
  if (alternatives !== undefined)
    return union(
      walk,
      alternatives.map((s, i) => pyType(asSchema(s), walk, `${hint}Option${i + 1}`)),
    );
  if (Array.isArray(schema.allOf)) return allOf(schema.allOf.map(asSchema), walk, hint);
  const types = typeList(schema);
  if (types.length === 0) return isObjectSchema(schema) ? objectType(schema, walk, hint) : PY_JSON;
  return union(
    walk,
    types.map((t) => typeFor(t, schema, walk, hint)),
  );
}

// `allOf` of object schemas merges into one TypedDict; other combinations are beyond Python's type system.
function allOf(members: Schema[], walk: PyWalk, hint: string): string {
  const objects = members.filter((m): m is Record<string, unknown> => isObject(m) && Object.keys(m).length > 0);
  if (objects.length === 1) return pyType(objects[0] as Record<string, unknown>, walk, hint);
  if (objects.length === 0 || !objects.every((m) => isObjectSchema(m) && m.$ref === undefined)) return PY_JSON;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const m of objects) {
    Object.assign(properties, isObject(m.properties) ? m.properties : {});
    required.push(...requiredSet(m));
  }
  return objectType({ type: 'object', properties, required }, walk, hint);
}

function typeFor(type: string, schema: Record<string, unknown>, walk: PyWalk, hint: string): string {
  switch (type) {
    case 'string':
      return 'str';
    case 'integer':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'null':
      return 'None';
    case 'array': {
      walk.stub.imports.add('List');
      const tuple = tupleItems(schema);
      // tuples are lists at run time; their members' union is what any element can be
      if (tuple !== undefined)
        return `List[${union(
          walk,
          tuple.map((s, i) => pyType(asSchema(s), walk, `${hint}Item${i + 1}`)),
        )}]`;
      return `List[${pyType(asSchema(schema.items ?? true), walk, `${hint}Item`)}]`;
    }
    case 'object':
      return objectType(schema, walk, hint);
    default:
      return PY_JSON;
  }
}

function objectType(schema: Record<string, unknown>, walk: PyWalk, hint: string): string {
  // type checkers refuse an empty TypedDict key; such a property stays undeclared (extra keys are not checked at run
  // time)
  const props = propertyEntries(schema).filter(([key]) => key !== '');
  if (props.length === 0) {
    walk.stub.imports.add('Dict');
    const extra = schema.additionalProperties;
    return `Dict[str, ${pyType(asSchema(extra === undefined || extra === false ? true : extra), walk, `${hint}Value`)}]`;
  }
  const name = walk.stub.names.claim(hint);
  const required = requiredSet(schema);
  const fields = props.map(([key, prop]) => ({
    key,
    type: pyType(prop, walk, `${name}${pascal(key, 'Field')}`),
    doc: description(prop),
    required: required.has(key),
  }));
  walk.stub.imports.add('TypedDict');
  const mandatory = fields.filter((f) => f.required);
  const optional = fields.filter((f) => !f.required);
  if (optional.length === 0 || mandatory.length === 0)
    walk.stub.definitions.push(typedDict(name, fields, optional.length > 0, []));
  else {
    // mixed required and optional keys: a total base plus a `total=False` part (works on every Python 3)
    const base = walk.stub.names.claim(`${name}Required`);
    walk.stub.definitions.push(typedDict(base, mandatory, false, []));
    if (optional.every((f) => classSafe(f.key))) walk.stub.definitions.push(typedDict(name, optional, true, [base]));
    else {
      const rest = walk.stub.names.claim(`${name}Optional`);
      walk.stub.definitions.push(typedDict(rest, optional, true, []));
      walk.stub.definitions.push(`class ${name}(${base}, ${rest}):\n    pass`);
    }
  }
  return name;
}

interface Field {
  key: string;
  type: string;
  doc: string | undefined;
}

// Keys written in class syntax must be plain identifiers that the class body does not mangle (`__x`).
const classSafe = (key: string): boolean => isPyIdentifier(key) && !key.startsWith('__');

function typedDict(name: string, fields: Field[], partial: boolean, bases: string[]): string {
  const total = partial ? ', total=False' : '';
  if (fields.every((f) => classSafe(f.key))) {
    const lines = [`class ${name}(${bases.length > 0 ? bases.join(', ') : 'TypedDict'}${total}):`];
    for (const f of fields) {
      lines.push(`    ${f.key}: ${f.type}`);
      if (f.doc !== undefined) lines.push(...pyDocstring(f.doc, '    '));
    }
    return lines.join('\n');
  }
  // exotic keys need the functional syntax; their descriptions become comments
  const comments = fields
    .filter((f) => f.doc !== undefined)
    .flatMap((f) => docLines(f.doc as string).map((l, i) => `# ${i === 0 ? `${f.key}: ` : ''}${l}`));
  const entries = fields.map((f) => `${pyString(f.key)}: ${f.type}`).join(', ');
  return [...comments, `${name} = TypedDict(${pyString(name)}, {${entries}}${total})`].join('\n');
}

// A docstring at `indent`; one line stays on one line.
export function pyDocstring(text: string, indent: string): string[] {
  const lines = docLines(text).map(pyDocText);
  // a quote right before the closing `"""` would merge with it
  if (lines.length === 1) return [`${indent}"""${(lines[0] as string).replace(/"$/, '\\"')}"""`];
  return [
    `${indent}"""${lines[0]}`,
    ...lines.slice(1).map((l) => (l.length > 0 ? `${indent}${l}` : '')),
    `${indent}"""`,
  ];
}
