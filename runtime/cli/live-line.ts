import { visibleText } from './terminal-text.js';
import type { CliIo } from './usage-error.js';

// A progress line that rewrites itself on a terminal (carriage return, erase line) and is absent everywhere else:
// piped output, CI logs (`CI` set), NO_COLOR and TERM=dumb get the plain lines alone, never a control sequence.
export interface LiveProgress {
  // the command's output: whatever it writes, to either stream, lands above the live line
  io: CliIo;
  // replaces the live line's text (drawn at once on a terminal; nothing elsewhere)
  show(text: string): void;
  // erases the live line for good
  end(): void;
}

const ERASE = '\r\u001b[2K';

// A duration as progress shows it: `4.8 s`.
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

// The width of `stream` where a live line may be drawn on it: a terminal that did not ask for plain output.
function liveColumns(io: CliIo, stream: 'stdout' | 'stderr'): number | undefined {
  const env = process.env;
  if ((env.CI ?? '') !== '' && env.CI !== 'false') return undefined;
  if ((env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb') return undefined;
  return io.terminalColumns?.(stream);
}

export function liveProgress(io: CliIo, stream: 'stdout' | 'stderr'): LiveProgress {
  const columns = liveColumns(io, stream);
  if (columns === undefined) return { io, show: () => undefined, end: () => undefined };
  const draw = io[stream];
  let current = '';
  // one column short of the width: a line that fills it wraps on some terminals, and \r then erases only its tail
  const fit = (text: string): string => {
    const chars = [...visibleText(text, { newlines: false })];
    return chars.length < columns ? chars.join('') : `${chars.slice(0, Math.max(1, columns - 2)).join('')}…`;
  };
  // lasting text goes above the line: erase it, write, draw it again below
  const above =
    (write: (text: string) => void) =>
    (text: string): void => {
      if (current === '') return write(text);
      draw(ERASE);
      write(text);
      draw(current);
    };
  return {
    io: { ...io, stdout: above(io.stdout), stderr: above(io.stderr) },
    show(text) {
      current = fit(text);
      draw(`${ERASE}${current}`);
    },
    end() {
      if (current !== '') draw(ERASE);
      current = '';
    },
  };
}
