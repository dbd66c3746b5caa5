import type { RunResult, SandboxLevel } from '../index.js';
import { visibleText } from './terminal-text.js';
import type { CliIo } from './usage-error.js';

// Once per command, in words: what the sandbox did not confine and how to fix it (the reason used to reach only
// --json and VS Code). Not for `--sandbox off`, which asked for exactly that.
export function sandboxNote(io: CliIo, command: string, level: SandboxLevel | undefined): (result: RunResult) => void {
  let said = false;
  return ({ sandbox: report, error }) => {
    // a run refused for want of the sandbox ran nothing to note: its failure (or sandboxRefusal) says why
    if (said || level === 'off' || error?.kind === 'sandbox-unavailable') return;
    // `engine: auto` chose WebAssembly: said once, in words, even though that engine's isolation is full
    if (report.notice !== undefined) {
      said = true;
      io.stderr(`ptc ${command}: ${visibleText(report.notice, { newlines: false })}\n`);
      return;
    }
    if (report.enforcement === 'full') return;
    said = true;
    const why =
      report.missing !== undefined && report.missing.length > 0 ? report.missing.join('; ') : 'see ptc doctor';
    io.stderr(
      `ptc ${command}: the sandbox is ${report.enforcement}: ${visibleText(why, { newlines: false })} (ptc doctor shows each layer)\n`,
    );
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
