import path from 'node:path';
import { LIMITS } from '../index.js';
import { CappedLines, visibleText } from './terminal-text.js';
import type { CliIo } from './usage-error.js';

type OnBindingsLog = (entry: { stream: 'stdout' | 'stderr'; text: string }) => void;

export interface BindingsLog {
  // a session's onBindingsLog for this module (every module of a command shares one cap)
  forModule(modulePath: string | undefined): OnBindingsLog;
  // once the command is done: one line for what the cap left out, if anything
  end(): void;
}

// The bindings' own console output and errors go to stderr, each line labelled as theirs (never the program's), with
// control and invisible characters shown (a handler that logs its input relays what the program chose), and at most
// the output cap of them per command (`--max-output-bytes`, else its default): the rest is counted, not shown.
export function bindingsLog(io: CliIo, options: { maxBytes?: number | undefined } = {}): BindingsLog {
  const lines = new CappedLines(options.maxBytes ?? LIMITS.maxOutputBytes.default, (line) => io.stderr(line));
  let ended = false;
  return {
    forModule: (modulePath) => {
      const label = visibleText(modulePath === undefined ? 'bindings' : `bindings ${path.basename(modulePath)}`, {
        newlines: false,
      });
      return (entry) => lines.push(`[${label}] ${visibleText(entry.text, { newlines: false })}`);
    },
    end: () => {
      if (ended) return;
      ended = true;
      const summary = lines.summary;
      if (summary !== undefined) io.stderr(`[bindings] … ${summary}\n`);
    },
  };
}
