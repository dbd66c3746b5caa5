import type { JsonValue } from '../protocol/json-value.js';
import type { JsonPath } from '../json/json-scan.js';
import { orderedKeys, prettyJson } from '../json/pretty-json.js';
import { KEY_ORDER } from './schema.js';

const KNOWN_NOTEBOOK_METADATA: ReadonlySet<string> = new Set(KEY_ORDER.notebookMetadata);
const KNOWN_CELL_METADATA: ReadonlySet<string> = new Set(KEY_ORDER.cellMetadata);

// True for `metadata.<unknown>` and `cells[i].metadata.<unknown>`: values kept verbatim across saves.
export function isUnknownMetadataPath(path: JsonPath): boolean {
  if (path.length === 2) return path[0] === 'metadata' && !KNOWN_NOTEBOOK_METADATA.has(path[1] as string);
  if (path.length === 4) {
    return (
      path[0] === 'cells' && path[2] === 'metadata' && typeof path[3] === 'string' && !KNOWN_CELL_METADATA.has(path[3])
    );
  }
  return false;
}

// Stable key order for every structural object of the file; nested values keep their own order.
export function notebookKeyOrder(path: JsonPath, keys: string[]): string[] {
  const [a, , c, , e] = path;
  switch (path.length) {
    case 0:
      return orderedKeys(keys, KEY_ORDER.file);
    case 1:
      return a === 'metadata' ? orderedKeys(keys, KEY_ORDER.notebookMetadata) : keys;
    case 2:
      return a === 'cells' ? orderedKeys(keys, KEY_ORDER.cell) : keys;
    case 3:
      return a === 'cells' && c === 'metadata' ? orderedKeys(keys, KEY_ORDER.cellMetadata) : keys;
    case 4:
      return a === 'cells' && c === 'outputs' ? orderedKeys(keys, KEY_ORDER.output) : keys;
    case 5:
      return a === 'cells' && c === 'outputs' && e === 'result' ? orderedKeys(keys, KEY_ORDER.result) : keys;
    default:
      return keys;
  }
}

// How the serializer would spell a value at this depth of the file.
export function canonicalAt(value: JsonValue, depth: number): string {
  return prettyJson(value, { baseDepth: depth });
}
