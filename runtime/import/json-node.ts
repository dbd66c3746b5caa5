import { describeValue, type FieldPath, type ImportFailure } from './import-error.js';
import { fieldFailure, type JsonRecord, parseEmbedded } from './json-records.js';

export type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// A value inside a transcript record with its path: every accessor reads own properties only and fails with
// the file, line and field of what is wrong.
export class JsonNode {
  readonly record: JsonRecord;
  readonly path: FieldPath;
  readonly value: unknown;

  constructor(record: JsonRecord, path: FieldPath = [], value: unknown = record.value) {
    this.record = record;
    this.path = path;
    this.value = value;
  }

  static of(record: JsonRecord): JsonNode {
    return new JsonNode(record, [], record.value);
  }

  fail(message: string): ImportFailure {
    return fieldFailure(this.record, this.path, message);
  }

  isObject(): boolean {
    return isObject(this.value);
  }

  isArray(): boolean {
    return Array.isArray(this.value);
  }

  has(key: string): boolean {
    return isObject(this.value) && Object.hasOwn(this.value, key);
  }

  // the child at `key` (own property) or undefined when absent
  get(key: string | number): JsonNode | undefined {
    if (typeof key === 'number') {
      if (!Array.isArray(this.value) || key >= this.value.length) return undefined;
      return new JsonNode(this.record, [...this.path, key], this.value[key]);
    }
    if (!isObject(this.value) || !Object.hasOwn(this.value, key)) return undefined;
    return new JsonNode(this.record, [...this.path, key], this.value[key]);
  }

  // a required object field
  obj(key: string): JsonNode {
    const node = this.get(key);
    if (node === undefined) throw this.at(key).fail('missing required field (expected an object)');
    if (!node.isObject()) throw node.fail(`expected an object, got ${describeValue(node.value)}`);
    return node;
  }

  optObj(key: string): JsonNode | undefined {
    const node = this.get(key);
    if (node === undefined || node.value === null) return undefined;
    if (!node.isObject()) throw node.fail(`expected an object, got ${describeValue(node.value)}`);
    return node;
  }

  // a required array field, as its elements
  arr(key: string): JsonNode[] {
    const node = this.get(key);
    if (node === undefined) throw this.at(key).fail('missing required field (expected an array)');
    return node.items();
  }

  optArr(key: string): JsonNode[] | undefined {
    const node = this.get(key);
    if (node === undefined || node.value === null) return undefined;
    return node.items();
  }

  items(): JsonNode[] {
    if (!Array.isArray(this.value)) throw this.fail(`expected an array, got ${describeValue(this.value)}`);
    return this.value.map((v, i) => new JsonNode(this.record, [...this.path, i], v));
  }

  str(key: string): string {
    const node = this.get(key);
    if (node === undefined) throw this.at(key).fail('missing required field (expected a string)');
    if (typeof node.value !== 'string') throw node.fail(`expected a string, got ${describeValue(node.value)}`);
    return node.value;
  }

  optStr(key: string): string | undefined {
    const node = this.get(key);
    if (node === undefined || node.value === null) return undefined;
    if (typeof node.value !== 'string') throw node.fail(`expected a string, got ${describeValue(node.value)}`);
    return node.value;
  }

  optNum(key: string): number | undefined {
    const node = this.get(key);
    if (node === undefined || node.value === null) return undefined;
    if (typeof node.value !== 'number' || !Number.isFinite(node.value))
      throw node.fail(`expected a number, got ${describeValue(node.value)}`);
    return node.value;
  }

  optBool(key: string): boolean | undefined {
    const node = this.get(key);
    if (node === undefined || node.value === null) return undefined;
    if (typeof node.value !== 'boolean') throw node.fail(`expected true or false, got ${describeValue(node.value)}`);
    return node.value;
  }

  // a string field (when present) read as the type tag of a union
  tag(key = 'type'): string | undefined {
    const node = this.get(key);
    return node !== undefined && typeof node.value === 'string' ? node.value : undefined;
  }

  // JSON text held in a string field, parsed with the same limits and located errors
  embedded(key: string): JsonNode {
    const text = this.str(key);
    const record = parseEmbedded(this.record, [...this.path, key], text);
    return JsonNode.of(record);
  }

  // a path for an absent key, so "missing field" errors point at the object that lacks it
  private at(key: string): JsonNode {
    return new JsonNode(this.record, [...this.path, key], undefined);
  }
}
