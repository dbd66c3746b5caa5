import type { SourceLocation } from '../../protocol/run-result.js';

const StringCtor = String;
const FRAME = /program\.ts:(\d+):(\d+)/;
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
    if (thrown instanceof Error || (thrown !== null && typeof thrown === 'object' && 'stack' in thrown)) {
      const raw: unknown = (thrown as { stack?: unknown }).stack;
      stack = typeof raw === 'string' ? raw : undefined;
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
  const lines = stack.split('\n');
  const frames = lines.filter((l) => /^\s+at /.test(l));
  const own = frames.filter((l) => FRAME.test(l)).slice(0, MAX_STACK_LINES);
  // SyntaxErrors from compilation put "program.ts:LINE" on the first stack line instead of in a frame
  const compileSite = /^program\.ts:(\d+)/.exec(lines[0] ?? '');
  let location: SourceLocation | undefined;
  const first = own[0] !== undefined ? FRAME.exec(own[0]) : null;
  if (first !== null) location = { line: Number(first[1]), column: Number(first[2]) };
  else if (compileSite !== null) location = { line: Math.max(1, Number(compileSite[1])) };
  const renderedFrames = own.map((l) => l.replace(/\(?[^\s(]*program\.ts:/, (m) => (m.startsWith('(') ? '(program.ts:' : 'program.ts:')));
  const message = [headline, ...renderedFrames].join('\n');
  return location === undefined ? { message } : { message, location };
}
