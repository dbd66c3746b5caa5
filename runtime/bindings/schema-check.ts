import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { errorMessage } from '../output/error-message.js';

// ajv ships CommonJS; under NodeNext its default export sits one level down.
type AjvCtor = typeof AjvModule.default;
const Ajv07 = ((AjvModule as unknown as { default?: AjvCtor }).default ?? AjvModule) as AjvCtor;
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvCtor }).default ?? Ajv2020Module) as AjvCtor;
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule.default }).default ??
  addFormatsModule) as unknown as (ajv: InstanceType<AjvCtor>) => void;

export type SchemaCheck = (value: unknown) => string[];

const MAX_ISSUES = 10;

function newAjv(ctor: AjvCtor): InstanceType<AjvCtor> {
  // strict off: real-world schemas (MCP servers, zod output) carry titles, examples and vendor keywords
  const ajv = new ctor({ allErrors: true, strict: false, validateSchema: true });
  addFormats(ajv);
  return ajv;
}

// One compiler per draft; schemas are compiled once per module load.
export class SchemaCompiler {
  #draft07: InstanceType<AjvCtor> | undefined;
  #draft2020: InstanceType<AjvCtor> | undefined;

  // Returns a checker listing each problem as `<path>: <problem>`, or throws naming why the schema itself is invalid.
  compile(schema: Record<string, unknown>): SchemaCheck {
    const uri = typeof schema.$schema === 'string' ? schema.$schema : '';
    const ajv =
      uri.includes('2020-12') || uri.includes('2019-09')
        ? (this.#draft2020 ??= newAjv(Ajv2020))
        : (this.#draft07 ??= newAjv(Ajv07));
    let validate: ValidateFunction;
    try {
      // a private copy without $id: the same schema may be declared by several functions
      const { $id: _id, ...rest } = schema;
      validate = ajv.compile(rest);
    } catch (error) {
      throw new Error(`invalid JSON Schema: ${errorMessage(error)}`, { cause: error });
    }
    return (value) => (validate(value) ? [] : describeIssues(validate.errors ?? []));
  }
}

function describeIssues(errors: ErrorObject[]): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const line = describeIssue(error);
    if (seen.has(line)) continue;
    seen.add(line);
    lines.push(line);
  }
  if (lines.length > MAX_ISSUES) return [...lines.slice(0, MAX_ISSUES), `… ${lines.length - MAX_ISSUES} more issue(s)`];
  return lines.length > 0 ? lines : ['$: does not match the schema'];
}

function describeIssue(error: ErrorObject): string {
  const at = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string')
    return `${child(at, params.missingProperty)}: is required`;
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string')
    return `${child(at, params.additionalProperty)}: is not allowed`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    return `${at}: must be one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `${at}: must be ${JSON.stringify(params.allowedValue)}`;
  return `${at}: ${error.message ?? 'is invalid'}`;
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function child(path: string, key: string): string {
  if (/^\d+$/.test(key)) return `${path}[${key}]`;
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

// JSON pointer (`/items/0/my~1key`) → `$.items[0]["my/key"]`.
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '$';
  let out = '$';
  for (const raw of pointer.slice(1).split('/')) out = child(out, raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  return out;
}
