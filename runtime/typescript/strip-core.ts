import type { RunFailure, SourceLocation } from '../protocol/run-result.js';
import { errorMessage } from '../output/error-message.js';

// The part of type stripping that needs no Node: amaro's transform (however it was loaded) applied to a program body,
// and its failures as the run's. strip.ts loads amaro in Node; the web extension loads the same module in the browser.
export type AmaroTransform = (code: string, options: { mode: 'strip-only' }) => { code: string };

// amaro (swc in wasm) strips types in place, blanking removed syntax so every position stays the author's.
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

// Strips TypeScript from a program body, loading amaro first; `whyUnavailable` adds what the embedding knows of a
// failed load (Node: an inherited address-space limit).
export function stripLoaded(
  program: string,
  whyUnavailable: (thrown: unknown) => string = () => '',
): Promise<StripResult> {
  return withTransform(whyUnavailable, (strip) => stripWith(strip, program));
}

// Strips TypeScript from a whole ES module (a bindings module in the browser) with the same transform; `file` names
// it in a failure's position.
export function stripModuleLoaded(text: string, file: string): Promise<StripResult> {
  return withTransform(
    () => '',
    (strip) => {
      try {
        return { ok: true, code: strip(text, { mode: 'strip-only' }).code };
      } catch (thrown) {
        return describeStripFailure(errorMessage(thrown), { lineOffset: 0, file });
      }
    },
  );
}

async function withTransform(
  whyUnavailable: (thrown: unknown) => string,
  use: (strip: AmaroTransform) => StripResult,
): Promise<StripResult> {
  let strip: AmaroTransform;
  try {
    strip = await loadTransform();
  } catch (thrown) {
    const text = errorMessage(thrown);
    return {
      ok: false,
      unavailable: true,
      message: `could not load the TypeScript stripper (amaro, WebAssembly): ${text}${whyUnavailable(thrown)}`,
    };
  }
  return use(strip);
}

const PREFIX = 'async function __ptc_program__() {\n';
const SUFFIX = '\n}';

// `unavailable`: the host could not strip at all (not the program's fault)
export type StripResult =
  { ok: true; code: string } | { ok: false; message: string; location?: SourceLocation; unavailable?: true };

// Strips TypeScript from a program body with a loaded transform; non-erasable syntax (enum, namespace, parameter
// properties) fails here.
export function stripWith(strip: AmaroTransform, program: string): StripResult {
  let output: string;
  try {
    output = strip(PREFIX + program + SUFFIX, { mode: 'strip-only' }).code;
  } catch (thrown) {
    return describeStripFailure(errorMessage(thrown), { lineOffset: 1, file: 'program.ts' });
  }
  if (!output.startsWith(PREFIX) || !output.endsWith(SUFFIX)) {
    return { ok: false, message: 'SyntaxError: the program is not a valid async function body' };
  }
  return { ok: true, code: output.slice(PREFIX.length, output.length - SUFFIX.length) };
}

// A program that did not strip as the run's failure: the host's own trouble is a worker-exit, the program's an
// exception.
export function stripFailure(stripped: Extract<StripResult, { ok: false }>): RunFailure {
  if (stripped.unavailable) return { kind: 'worker-exit', message: stripped.message };
  return stripped.location === undefined
    ? { kind: 'exception', message: stripped.message }
    : { kind: 'exception', message: stripped.message, location: stripped.location };
}

// `lineOffset`: lines the stripped text had before the author's first (a program's wrapper)
function describeStripFailure(text: string, where: { lineOffset: number; file: string }): StripResult {
  const lines = text.split('\n');
  const headline = (lines.find((l) => /^\s*x\s/.test(l)) ?? lines[0] ?? 'invalid TypeScript')
    .replace(/^\s*x\s+/, '')
    .trim();
  const at = /,-\[(\d+):(\d+)\]/.exec(text);
  let location: SourceLocation | undefined;
  if (at !== null) {
    const line = Number(at[1]) - where.lineOffset;
    let column = Number(at[2]);
    const caretLine = lines.find((l) => /^\s*:\s*\^/.test(l));
    const codeLine = lines.find((l) => new RegExp(`^\\s*${at[1]} \\|`).test(l));
    if (caretLine !== undefined && codeLine !== undefined) {
      column = caretLine.indexOf('^') - (codeLine.indexOf('|') + 2) + 1;
    }
    if (line >= 1) location = { line, column: Math.max(1, column) };
  }
  const place = location === undefined ? '' : ` (${where.file}:${location.line}:${location.column ?? 1})`;
  const message = `SyntaxError: ${headline}${place}`;
  return location === undefined ? { ok: false, message } : { ok: false, message, location };
}
