import type { Literal } from './argument-literals.js';

export interface ArgumentProblem {
  start: number;
  end: number;
  message: string;
}

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;

// Where a literal does not match a binding's input schema in a way the runtime's own check would also refuse: a
// missing required field, a literal of the wrong type (or outside an enum), a field a closed object does not have.
// Lenient: what is not a literal, and schema constructs this does not follow ($ref, anyOf, oneOf, allOf, not,
// patternProperties), are not checked.
export function argumentProblems(literal: Literal, schema: Schema | undefined, path = ''): ArgumentProblem[] {
  if (schema === undefined || literal.kind === 'unknown') return [];
  if (['$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if'].some((k) => k in schema)) return [];
  const where = path === '' ? 'the argument' : `"${path}"`;
  const allowed = typesOf(schema);
  if (allowed !== undefined && !allowed.some((t) => matches(literal, t)))
    return [
      {
        start: literal.start,
        end: literal.end,
        message: `${where} should be ${allowed.map(article).join(' or ')}, not ${article(literal.kind)}`,
      },
    ];
  if (Array.isArray(schema.enum) && literal.kind !== 'object' && literal.kind !== 'array') {
    // only the type of an enum's literal is known here (values are not decoded): a type no member has is reported
    const kinds = new Set(schema.enum.map(kindOfValue));
    if (!kinds.has(literal.kind) && !(literal.kind === 'number' && kinds.has('integer')))
      return [
        {
          start: literal.start,
          end: literal.end,
          message: `${where} should be one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`,
        },
      ];
  }
  if (literal.kind === 'array') {
    const items = asSchema(schema.items);
    return literal.items.flatMap((item, i) => argumentProblems(item, items, `${path}[${i}]`));
  }
  if (literal.kind !== 'object') return [];
  const properties = asSchema(schema.properties) ?? {};
  const problems: ArgumentProblem[] = [];
  const present = new Set(literal.entries.map((e) => e.key));
  const closed = schema.additionalProperties === false && !('patternProperties' in schema);
  for (const entry of literal.entries) {
    const child = Object.hasOwn(properties, entry.key) ? asSchema(properties[entry.key]) : undefined;
    const at = path === '' ? entry.key : `${path}.${entry.key}`;
    if (child === undefined && !Object.hasOwn(properties, entry.key)) {
      if (closed) {
        const known = Object.keys(properties);
        problems.push({
          start: entry.keyStart,
          end: entry.keyEnd,
          message: `"${at}" is not a field of this argument${known.length === 0 ? '' : ` (it has: ${known.join(', ')})`}`,
        });
      } else problems.push(...argumentProblems(entry.value, asSchema(schema.additionalProperties), at));
      continue;
    }
    problems.push(...argumentProblems(entry.value, child, at));
  }
  if (!literal.open && Array.isArray(schema.required)) {
    const missing = schema.required.filter((r): r is string => typeof r === 'string' && !present.has(r));
    if (missing.length > 0)
      problems.push({
        start: literal.start,
        end: Math.min(literal.end, literal.start + 1),
        message: `${where} is missing the required field${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`,
      });
  }
  return problems;
}

function typesOf(schema: Schema): string[] | undefined {
  const type = schema.type;
  const types =
    typeof type === 'string'
      ? [type]
      : Array.isArray(type)
        ? type.filter((t): t is string => typeof t === 'string')
        : undefined;
  if (types === undefined || types.length === 0) return undefined;
  return schema.nullable === true ? [...types, 'null'] : types;
}

function matches(literal: Literal, type: string): boolean {
  if (type === 'integer') return literal.kind === 'number' && literal.integer;
  return literal.kind === type;
}

function kindOfValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? 'number' : typeof value;
}

function article(type: string): string {
  const names: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'an integer',
    boolean: 'a boolean',
    null: 'null',
    array: 'an array',
    object: 'an object',
  };
  return names[type] ?? type;
}
