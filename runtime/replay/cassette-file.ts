import fs from 'node:fs/promises';
import { decodeLossless, parseIterative } from '../json/lossless.js';
import { prettyJson } from '../json/pretty-json.js';
import type { JsonValue } from '../protocol/json-value.js';
import { CASSETTE_VERSION, CassetteSchema, orderCassette, type Cassette } from './cassette-format.js';
import { writeFileAtomically } from '../files/atomic-write.js';

export type CassetteLoad = { ok: true; cassette: Cassette } | { ok: false; message: string };

// Text of a cassette: 2-space JSON with a fixed key order and a trailing newline (readable, diffable).
export function formatCassette(cassette: Cassette): string {
  return `${prettyJson(orderCassette(cassette) as unknown as JsonValue)}\n`;
}

// Parses cassette text; every problem is a message naming where it is, never a throw.
export function parseCassette(text: string, label = 'cassette'): CassetteLoad {
  try {
    JSON.parse(text);
  } catch (error) {
    if (!(error instanceof RangeError))
      return { ok: false, message: `${label} is not valid JSON: ${describeSyntaxError(text, error as Error)}` };
  }
  const decoded = decodeLossless(text);
  if (!decoded.ok) return { ok: false, message: `${label} is not valid JSON: ${decoded.reason}` };
  const root = decoded.value;
  if (root === null || typeof root !== 'object' || Array.isArray(root))
    return { ok: false, message: `${label} must be a JSON object { "version": ${CASSETTE_VERSION}, "calls": [...] }` };
  const version = (root as Record<string, JsonValue>).version;
  if (version !== CASSETTE_VERSION) {
    return {
      ok: false,
      message: `${label} has version ${JSON.stringify(version ?? null)}; this build reads version ${CASSETTE_VERSION} only`,
    };
  }
  const parsed = CassetteSchema.safeParse(root);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    return { ok: false, message: `${label} is not a valid cassette:\n${issues.join('\n')}` };
  }
  return { ok: true, cassette: parsed.data };
}

export async function loadCassette(file: string): Promise<CassetteLoad> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    return {
      ok: false,
      message: `cannot read cassette ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    };
  }
  return parseCassette(text, `cassette ${file}`);
}

// Writes atomically (temp file + rename): a crash mid-write never leaves half a cassette.
export async function saveCassette(file: string, cassette: Cassette): Promise<void> {
  await writeFileAtomically(file, formatCassette(cassette));
}

function formatPath(segments: readonly PropertyKey[]): string {
  let out = '$';
  for (const s of segments)
    out +=
      typeof s === 'number'
        ? `[${s}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(s))
          ? `.${String(s)}`
          : `[${JSON.stringify(String(s))}]`;
  return out;
}

// V8's message names a character position only for some errors; the iterative parser always knows one. Shown as line:column.
function describeSyntaxError(text: string, error: Error): string {
  const iterative = parseIterative(text);
  const match = /position (\d+)/.exec(error.message) ?? (iterative.ok ? null : / at (\d+)\)$/.exec(iterative.reason));
  if (match === null) return error.message;
  const at = Number(match[1]);
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return `${error.message.replace(/\s*\(line \d+ column \d+\)$/, '')} (line ${line}, column ${column})`;
}
