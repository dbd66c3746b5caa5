import fs from 'node:fs/promises';
import path from 'node:path';
import type { JsonValue } from '../protocol/json-value.js';
import { loadCassette, type Cassette } from '../replay/index.js';
import type { SdkSource } from './sdk-source.js';

// Output types learned from recordings, for tools that declare none (many MCP tools): a cautious JSON Schema from
// the values the cassettes recorded — the union of the shapes seen, keys optional unless every sample had them,
// a string format only when every sample agrees — marked as inferred, and never replacing a declared schema.

type Schema = Record<string, unknown>;

// nesting beyond this is left open (`{}`): a schema the model reads must stay short
const MAX_DEPTH = 12;
// a key seen in fewer objects than this many is still listed (optional); more keys than this leaves the object open
const MAX_KEYS = 64;

const FORMATS: readonly [string, RegExp][] = [
  ['date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/],
  ['date', /^\d{4}-\d{2}-\d{2}$/],
  ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i],
  ['email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/],
  ['uri', /^[a-z][a-z0-9+.-]*:\/\/\S+$/i],
];

function kind(value: JsonValue): 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as 'boolean' | 'string' | 'object';
}

// The schema of every sample (at least one).
export function inferSchema(samples: readonly JsonValue[], depth = 0): Schema {
  if (samples.length === 0 || depth >= MAX_DEPTH) return {};
  const byKind = new Map<string, JsonValue[]>();
  for (const value of samples) {
    let k = kind(value);
    // integers and other numbers are one kind, `number`, unless every number is an integer
    if (k === 'integer' && samples.some((v) => kind(v) === 'number')) k = 'number';
    byKind.set(k, [...(byKind.get(k) ?? []), value]);
  }
  const parts = [...byKind].map(([k, values]) => schemaOfKind(k, values, depth));
  if (parts.length === 1) return parts[0] as Schema;
  // scalars without detail merge into one `type` list; anything richer stays an alternative
  if (parts.every((p) => Object.keys(p).length === 1)) return { type: parts.map((p) => p.type as string) };
  return { anyOf: parts };
}

function schemaOfKind(k: string, values: JsonValue[], depth: number): Schema {
  if (k === 'string') {
    const format = FORMATS.find(([, pattern]) => values.every((v) => pattern.test(v as string)));
    return format === undefined ? { type: 'string' } : { type: 'string', format: format[0] };
  }
  if (k === 'array') {
    const items = (values as JsonValue[][]).flat();
    return items.length === 0 ? { type: 'array' } : { type: 'array', items: inferSchema(items, depth + 1) };
  }
  if (k === 'object') {
    const objects = values as { [key: string]: JsonValue }[];
    const keys = new Map<string, JsonValue[]>();
    for (const object of objects)
      for (const [key, v] of Object.entries(object)) keys.set(key, [...(keys.get(key) ?? []), v]);
    if (keys.size > MAX_KEYS) return { type: 'object' };
    const properties: Schema = {};
    const required: string[] = [];
    for (const [key, seen] of [...keys].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      properties[key] = inferSchema(seen, depth + 1);
      if (seen.length === objects.length) required.push(key);
    }
    return required.length === 0 ? { type: 'object', properties } : { type: 'object', properties, required };
  }
  return { type: k };
}

export interface LearnedOutput {
  schema: Schema;
  // answered calls the schema was learned from
  calls: number;
}

// `global.name` → the output schema its recorded answers imply (failed and pending calls teach nothing).
export function learnOutputs(cassettes: readonly Cassette[]): Map<string, LearnedOutput> {
  const values = new Map<string, JsonValue[]>();
  for (const cassette of cassettes) {
    for (const call of cassette.calls) {
      if (!call.ok || call.value === undefined) continue;
      const key = `${call.global}.${call.name}`;
      values.set(key, [...(values.get(key) ?? []), call.value]);
    }
  }
  return new Map([...values].map(([key, samples]) => [key, { schema: inferSchema(samples), calls: samples.length }]));
}

// The module's SDK source with learned outputs for functions that declare none, each marked in its description.
export function withLearnedOutputs(source: SdkSource, learned: ReadonlyMap<string, LearnedOutput>): SdkSource {
  const namespaces: SdkSource['namespaces'] = {};
  for (const [global, ns] of Object.entries(source.namespaces)) {
    const functions: SdkSource['namespaces'][string]['functions'] = {};
    for (const [name, fn] of Object.entries(ns.functions)) {
      const found = learned.get(`${global}.${name}`);
      if (fn.output !== undefined || found === undefined) {
        functions[name] = fn;
        continue;
      }
      const note = `Result type inferred from ${found.calls} recorded call${found.calls === 1 ? '' : 's'} (not declared by the tool).`;
      const description =
        typeof fn.description === 'string' && fn.description.trim() !== '' ? `${fn.description}\n\n${note}` : note;
      functions[name] = { ...fn, description, output: { ...found.schema, 'x-inferred-from-calls': found.calls } };
    }
    namespaces[global] = { ...ns, functions };
  }
  return { namespaces };
}

export type CassetteGather = { ok: true; cassettes: Cassette[] } | { ok: false; message: string };

// Cassette files from paths: a file, or a folder whose `.json` files (any depth) are cassettes.
export async function readCassettes(paths: readonly string[]): Promise<CassetteGather> {
  const files: string[] = [];
  for (const entry of paths) {
    let stat;
    try {
      stat = await fs.stat(entry);
    } catch {
      return { ok: false, message: `no such cassette file or folder: ${entry}` };
    }
    if (!stat.isDirectory()) {
      files.push(entry);
      continue;
    }
    const pending = [entry];
    while (pending.length > 0) {
      const dir = pending.pop() as string;
      for (const d of await fs.readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, d.name);
        if (d.isDirectory()) pending.push(full);
        else if (d.isFile() && d.name.endsWith('.json')) files.push(full);
      }
    }
  }
  const cassettes: Cassette[] = [];
  for (const file of files.sort()) {
    const loaded = await loadCassette(file);
    if (!loaded.ok) return { ok: false, message: loaded.message };
    cassettes.push(loaded.cassette);
  }
  return { ok: true, cassettes };
}
