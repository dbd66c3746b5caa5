import { inheritedLimits } from '../process/inherited-limits.js';
import type { SourceLocation } from '../protocol/run-result.js';

// amaro (swc in wasm) strips types in place, blanking removed syntax so every position stays the author's.
type AmaroTransform = (code: string, options: { mode: 'strip-only' }) => { code: string };
let transform: Promise<AmaroTransform> | undefined;

// Loaded lazily: the wasm module is 3.5 MB and only TypeScript runs need it. A failed load is not kept: it can be
// this moment's (address space), and the next run tries again.
function loadTransform(): Promise<AmaroTransform> {
  transform ??= import('amaro').then(
    (m: { transformSync?: AmaroTransform; default?: { transformSync: AmaroTransform } }) => {
      const fn = m.transformSync ?? m.default?.transformSync;
      if (fn === undefined) throw new Error('amaro has no transformSync export');
      return fn;
    },
  );
  transform.catch(() => (transform = undefined));
  return transform;
}

// Why the stripper could not load: WebAssembly reserves far more address space than it uses, so an inherited
// RLIMIT_AS of a few GiB is the usual cause, and it is named.
function unavailable(thrown: unknown): StripResult {
  const text = String((thrown as { message?: unknown } | null)?.message ?? thrown);
  const limit = inheritedLimits().addressSpaceBytes;
  const why =
    limit === undefined
      ? ''
      : `; this process inherited an address-space limit (RLIMIT_AS ${Math.floor(limit / (1024 * 1024))} MiB), and WebAssembly reserves about 10 GiB of address space`;
  return {
    ok: false,
    unavailable: true,
    message: `could not load the TypeScript stripper (amaro, WebAssembly): ${text}${why}`,
  };
}

const PREFIX = 'async function __ptc_program__() {\n';
const SUFFIX = '\n}';

// `unavailable`: the host could not strip at all (not the program's fault)
export type StripResult =
  { ok: true; code: string } | { ok: false; message: string; location?: SourceLocation; unavailable?: true };

// Strips TypeScript from a program body; non-erasable syntax (enum, namespace, parameter properties) fails here.
export async function stripProgram(program: string): Promise<StripResult> {
  let strip: AmaroTransform;
  try {
    strip = await loadTransform();
  } catch (thrown) {
    return unavailable(thrown);
  }
  let output: string;
  try {
    output = strip(PREFIX + program + SUFFIX, { mode: 'strip-only' }).code;
  } catch (thrown) {
    return describeStripFailure(
      typeof thrown === 'string' ? thrown : String((thrown as { message?: unknown })?.message ?? thrown),
    );
  }
  if (!output.startsWith(PREFIX) || !output.endsWith(SUFFIX)) {
    return { ok: false, message: 'SyntaxError: the program is not a valid async function body' };
  }
  return { ok: true, code: output.slice(PREFIX.length, output.length - SUFFIX.length) };
}

function describeStripFailure(text: string): StripResult {
  const lines = text.split('\n');
  const headline = (lines.find((l) => /^\s*x\s/.test(l)) ?? lines[0] ?? 'invalid TypeScript')
    .replace(/^\s*x\s+/, '')
    .trim();
  const at = /,-\[(\d+):(\d+)\]/.exec(text);
  let location: SourceLocation | undefined;
  if (at !== null) {
    const line = Number(at[1]) - 1;
    let column = Number(at[2]);
    const caretLine = lines.find((l) => /^\s*:\s*\^/.test(l));
    const codeLine = lines.find((l) => new RegExp(`^\\s*${at[1]} \\|`).test(l));
    if (caretLine !== undefined && codeLine !== undefined) {
      column = caretLine.indexOf('^') - (codeLine.indexOf('|') + 2) + 1;
    }
    if (line >= 1) location = { line, column: Math.max(1, column) };
  }
  const where = location === undefined ? '' : ` (program.ts:${location.line}:${location.column ?? 1})`;
  const message = `SyntaxError: ${headline}${where}`;
  return location === undefined ? { ok: false, message } : { ok: false, message, location };
}
