import { writeFileAtomically } from '../files/atomic-write.js';
import { readTextFile } from '../files/read-text.js';
import { prettyJson } from '../json/pretty-json.js';
import type { JsonValue } from '../protocol/json-value.js';
import { orderCassette, type Cassette } from './cassette-format.js';
import { parseCassette, type CassetteLoad } from './cassette-text.js';

export { parseCassette, type CassetteLoad };

// Text of a cassette: 2-space JSON with a fixed key order and a trailing newline (readable, diffable).
export function formatCassette(cassette: Cassette): string {
  return `${prettyJson(orderCassette(cassette) as unknown as JsonValue)}\n`;
}

export async function loadCassette(file: string): Promise<CassetteLoad> {
  const read = await readTextFile(file);
  if (!read.ok) return { ok: false, message: `cannot read cassette ${file}: ${read.reason}` };
  return parseCassette(read.text, `cassette ${file}`);
}

// Writes atomically (temp file + rename): a crash mid-write never leaves half a cassette.
export async function saveCassette(file: string, cassette: Cassette): Promise<void> {
  await writeFileAtomically(file, formatCassette(cassette));
}
