import type { SourceLocation } from '../../runtime/protocol/run-result.js';

export interface CodeFrameLine {
  number: number;
  text: string;
  target: boolean;
}

export interface CodeFrame {
  lines: CodeFrameLine[];
  // the caret's prefix: the target line's characters before the column, with every non-tab turned into a space
  caretPrefix: string | undefined;
}

const MAX_LINE_CHARS = 400;

// The program lines around a location (±context), for a code frame with a caret under the column.
export function codeFrame(program: string, location: SourceLocation, context = 2): CodeFrame | undefined {
  const all = program.split(/\r\n|\r|\n/);
  if (location.line < 1 || location.line > all.length) return undefined;
  const first = Math.max(1, location.line - context);
  const last = Math.min(all.length, location.line + context);
  const lines: CodeFrameLine[] = [];
  for (let n = first; n <= last; n += 1) {
    const raw = all[n - 1] ?? '';
    lines.push({
      number: n,
      text: raw.length > MAX_LINE_CHARS ? `${raw.slice(0, MAX_LINE_CHARS)}…` : raw,
      target: n === location.line,
    });
  }
  let caretPrefix: string | undefined;
  if (location.column !== undefined) {
    const target = all[location.line - 1] ?? '';
    const column = Math.min(location.column, Math.min(target.length, MAX_LINE_CHARS) + 1);
    caretPrefix = target.slice(0, column - 1).replace(/[^\t]/g, ' ');
  }
  return { lines, caretPrefix };
}
