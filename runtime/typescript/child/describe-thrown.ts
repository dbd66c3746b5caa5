import {
  isError,
  MathMax,
  NumberCtor,
  RegExpPrototypeExec as exec,
  StringCtor,
  StringPrototypeSlice as slice,
  StringPrototypeSplit as split,
  StringPrototypeStartsWith as startsWith,
  JSONStringify as stringify,
} from '../../json/primordials.js';
import type { SourceLocation } from '../../protocol/run-result.js';
import { capText, MAX_EMBEDDED_CHARS, MAX_EXCEPTION_CHARS } from '../../output/diagnostic.js';

// Runs after model code (often because it broke something): captured intrinsics only, no regex-driven String methods.
const FRAME = /program\.ts:(\d+):(\d+)/;
const FRAME_LINE = /^\s+at /;
const COMPILE_SITE = /^program\.ts:(\d+)/;
// the path before "program.ts:" in a frame, with its opening parenthesis if any
const FRAME_PATH = /\(?[^\s(]*program\.ts:/;
const MAX_STACK_LINES = 50;

export interface ThrownDescription {
  message: string;
  location?: SourceLocation;
}

// Renders a thrown value for the model: the stack filtered to the program's own frames, with its location.
export function describeThrown(thrown: unknown): ThrownDescription {
  let stack: string | undefined;
  let headline: string;
  try {
    if (isError(thrown) || (thrown !== null && typeof thrown === 'object' && 'stack' in thrown)) {
      // read on its own: a throwing stack getter or Error.prepareStackTrace still leaves name and message
      try {
        const raw: unknown = (thrown as { stack?: unknown }).stack;
        stack = typeof raw === 'string' ? raw : undefined;
      } catch {
        stack = undefined;
      }
      // program text: a 70 MiB name or message is cut before anything is built from it
      const name = capText(StringCtor((thrown as { name?: unknown }).name ?? 'Error'), MAX_EMBEDDED_CHARS);
      const message = capText(StringCtor((thrown as { message?: unknown }).message ?? ''), MAX_EXCEPTION_CHARS);
      headline = message.length > 0 ? `${name}: ${message}` : name;
    } else {
      headline = `Uncaught ${capText(StringCtor(thrown), MAX_EXCEPTION_CHARS)}`;
    }
  } catch {
    return { message: 'program threw an unrenderable value' };
  }
  if (stack === undefined) return { message: capText(headline, MAX_EXCEPTION_CHARS) };
  const lines = split(stack, '\n');
  // built as one string, not an array: writes to new array indices would call accessors planted on Array.prototype
  let rendered = headline;
  let count = 0;
  let location: SourceLocation | undefined;
  for (let i = 0; i < lines.length && count < MAX_STACK_LINES && rendered.length < MAX_EXCEPTION_CHARS; i++) {
    // a frame names program functions: each line is capped like any embedded program text
    const line = capText(lines[i] as string, MAX_EMBEDDED_CHARS);
    if (exec(FRAME_LINE, line) === null) continue;
    const frame = exec(FRAME, line);
    if (frame === null) continue;
    if (location === undefined) location = { line: NumberCtor(frame[1]), column: NumberCtor(frame[2]) };
    const path = exec(FRAME_PATH, line);
    rendered +=
      '\n' +
      (path === null
        ? line
        : slice(line, 0, path.index) +
          (startsWith(path[0], '(') ? '(program.ts:' : 'program.ts:') +
          slice(line, path.index + path[0].length));
    count++;
  }
  // SyntaxErrors from compilation put "program.ts:LINE" on the first stack line instead of in a frame
  if (location === undefined && lines.length > 0) {
    const compileSite = exec(COMPILE_SITE, lines[0] as string);
    if (compileSite !== null) location = { line: MathMax(1, NumberCtor(compileSite[1])) };
  }
  const message = capText(rendered, MAX_EXCEPTION_CHARS);
  return location === undefined ? { message } : { message, location };
}

// A settling frame for a failure, built as text (the program may have planted toJSON on Object.prototype).
export function errorFrame(kind: string, message: string, location?: { line: number; column?: number }): string {
  const at =
    location === undefined
      ? ''
      : `,"location":{"line":${location.line}${location.column === undefined ? '' : `,"column":${location.column}`}}`;
  return `{"type":"done","error":{"kind":"${kind}","message":${stringify(message)}${at}}}`;
}
