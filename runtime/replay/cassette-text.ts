import { decodeLossless, parseIterative } from '../json/lossless.js';
import type { JsonValue } from '../protocol/json-value.js';
import { CASSETTE_VERSION, CassetteSchema } from './cassette-format.js';
import type { Cassette } from './cassette-format.js';

// Reading a cassette's text, with no file system behind it (cassette-file.ts reads files in Node; the web extension
// reads them through the editor).
export type CassetteLoad = { ok: true; cassette: Cassette } | { ok: false; message: string };

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

// V8's message names a character position only for some errors; the iterative parser always knows one. Shown as
// line:column.
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
