import type { SourceLocation } from '../../runtime/protocol/run-result.js';

export interface StackFrame {
  text: string;
  location: SourceLocation | undefined;
}

export interface SplitMessage {
  // the error line(s) before any stack frame
  headline: string;
  // only the program's own frames (runtime, node: and bootstrap frames removed)
  frames: StackFrame[];
  hiddenFrames: number;
}

const JS_FRAME = /^\s+at\s/;
const JS_PROGRAM = /program\.ts:(\d+)(?::(\d+))?/;
const PY_FRAME = /^\s*File "([^"]+)", line (\d+)/;
const PY_PROGRAM = /^(?:<program>|program\.py)$/;

// Python 3.11+ marks the failing expression under the source line: `    ~~~~~~^~~~~`
const PY_MARKER = /^\s*[~^]+\s*$/;

// Splits a failure message into its headline and the program's own stack frames (TypeScript and Python shapes).
// With the program text, a Python frame's `^` marker becomes a column.
export function splitFailureMessage(message: string, program?: string): SplitMessage {
  const lines = message.split('\n');
  const headline: string[] = [];
  const frames: StackFrame[] = [];
  let hiddenFrames = 0;
  let inStack = false;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (JS_FRAME.test(line)) {
      inStack = true;
      const m = JS_PROGRAM.exec(line);
      if (m === null) hiddenFrames += 1;
      else frames.push({ text: line.trim(), location: toLocation(m[1], m[2]) });
      continue;
    }
    if (/^Traceback \(most recent call last\):/.test(line)) {
      inStack = true;
      continue;
    }
    const py = PY_FRAME.exec(line);
    if (py !== null) {
      inStack = true;
      const next = lines[i + 1];
      const hasSource = next !== undefined && /^\s{4,}\S/.test(next) && PY_FRAME.exec(next) === null;
      const marker = hasSource ? lines[i + 2] : undefined;
      const hasMarker = marker !== undefined && PY_MARKER.test(marker);
      if (PY_PROGRAM.test(py[1] ?? '')) {
        const location = toLocation(py[2], undefined);
        const column =
          hasMarker && next !== undefined && location !== undefined
            ? markerColumn(next, marker, program, location.line)
            : undefined;
        frames.push({
          text: hasSource ? `${line.trim()}: ${next.trim()}` : line.trim(),
          location: column === undefined || location === undefined ? location : { ...location, column },
        });
      } else hiddenFrames += 1;
      i += (hasSource ? 1 : 0) + (hasMarker ? 1 : 0);
      continue;
    }
    // python puts the exception line after the traceback; keep it as the headline
    if (!inStack || headline.length === 0 || line.trim() !== '') headline.push(line);
  }
  return { headline: headline.join('\n').trim(), frames, hiddenFrames };
}

// The traceback prints the source line stripped and re-indented; the marker is aligned with that copy.
function markerColumn(source: string, marker: string, program: string | undefined, line: number): number | undefined {
  if (program === undefined) return undefined;
  const original = program.split(/\r\n|\r|\n/)[line - 1];
  const caret = marker.indexOf('^');
  const shownIndent = source.length - source.trimStart().length;
  if (original === undefined || caret < shownIndent || original.trim() !== source.trim()) return undefined;
  const indent = original.length - original.trimStart().length;
  return indent + (caret - shownIndent) + 1;
}

function toLocation(line: string | undefined, column: string | undefined): SourceLocation | undefined {
  const n = Number(line);
  if (!Number.isInteger(n) || n < 1) return undefined;
  const c = Number(column);
  return Number.isInteger(c) && c >= 1 ? { line: n, column: c } : { line: n };
}
