import {
  isError,
  MathMax,
  NumberCtor,
  RegExpPrototypeExec as exec,
  StringCtor,
  StringPrototypeSlice as slice,
  StringPrototypeSplit as split,
  StringPrototypeStartsWith as startsWith,
} from '../../json/primordials.js';
import type { SourceLocation } from '../../protocol/run-result.js';

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
      const name = StringCtor((thrown as { name?: unknown }).name ?? 'Error');
      const message = StringCtor((thrown as { message?: unknown }).message ?? '');
      headline = message.length > 0 ? `${name}: ${message}` : name;
    } else {
      headline = `Uncaught ${StringCtor(thrown)}`;
    }
  } catch {
    return { message: 'program threw an unrenderable value' };
  }
  if (stack === undefined) return { message: headline };
  const lines = split(stack, '\n');
  // built as one string, not an array: writes to new array indices would call accessors planted on Array.prototype
  let rendered = headline;
  let count = 0;
  let location: SourceLocation | undefined;
  for (let i = 0; i < lines.length && count < MAX_STACK_LINES; i++) {
    const line = lines[i] as string;
    if (exec(FRAME_LINE, line) === null) continue;
    const frame = exec(FRAME, line);
    if (frame === null) continue;
    if (location === undefined) location = { line: NumberCtor(frame[1]), column: NumberCtor(frame[2]) };
    const path = exec(FRAME_PATH, line);
    rendered +=
      '\n' +
      (path === null
        ? line
        : slice(line, 0, path.index) + (startsWith(path[0], '(') ? '(program.ts:' : 'program.ts:') + slice(line, path.index + path[0].length));
    count++;
  }
  // SyntaxErrors from compilation put "program.ts:LINE" on the first stack line instead of in a frame
  if (location === undefined && lines.length > 0) {
    const compileSite = exec(COMPILE_SITE, lines[0] as string);
    if (compileSite !== null) location = { line: MathMax(1, NumberCtor(compileSite[1])) };
  }
  return location === undefined ? { message: rendered } : { message: rendered, location };
}
