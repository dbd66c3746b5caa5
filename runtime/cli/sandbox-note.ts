import type { RunResult, SandboxLevel } from '../index.js';
import { visibleText } from './terminal-text.js';
import type { CliIo } from './usage-error.js';

// Once per command and per distinct note, in words: what the sandbox did not confine and how to fix it (the reason
// used to reach only --json and VS Code). A suite of both languages says what runs each (quickjs for TypeScript,
// pyodide for Python), not only the first. Not for `--sandbox off`, which asked for exactly that.
export function sandboxNote(io: CliIo, command: string, level: SandboxLevel | undefined): (result: RunResult) => void {
  const said = new Set<string>();
  return ({ sandbox: report, error }) => {
    // a run refused for want of the sandbox ran nothing to note: its failure (or sandboxRefusal) says why
    if (level === 'off' || error?.kind === 'sandbox-unavailable') return;
    let line: string;
    // `engine: auto` chose WebAssembly: said in words, even though that engine's isolation is full
    if (report.notice !== undefined) line = `ptc ${command}: ${visibleText(report.notice, { newlines: false })}\n`;
    else if (report.enforcement === 'full') return;
    else {
      const why =
        report.missing !== undefined && report.missing.length > 0 ? report.missing.join('; ') : 'see ptc doctor';
      line = `ptc ${command}: the sandbox is ${report.enforcement}: ${visibleText(why, { newlines: false })} (ptc doctor shows each layer)\n`;
    }
    if (said.has(line)) return;
    said.add(line);
    io.stderr(line);
  };
}

// `--sandbox required` on a host that cannot meet it for this run's language (no OS sandbox, no WebAssembly engine
// for it): the command says so in one line and exits with this code, as for misuse, instead of a failure per run.
export const SANDBOX_REFUSED_EXIT = 2;

export function sandboxRefusal(level: SandboxLevel | undefined, result: RunResult): string | undefined {
  if (level !== 'required' || result.error?.kind !== 'sandbox-unavailable') return undefined;
  // the runtime's message already says "sandbox required but unavailable here: <what is missing and how to fix it>"
  return `${result.language}: ${visibleText(result.error.message, { newlines: false })}`;
}
