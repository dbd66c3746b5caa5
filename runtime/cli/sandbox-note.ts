import type { SandboxLevel, SandboxReport } from '../index.js';
import { visibleText } from './terminal-text.js';
import type { CliIo } from './usage-error.js';

// Once per command, in words: what the sandbox did not confine and how to fix it (the reason used to reach only
// --json and VS Code). Not for `--sandbox off`, which asked for exactly that.
export function sandboxNote(
  io: CliIo,
  command: string,
  level: SandboxLevel | undefined,
): (report: SandboxReport) => void {
  let said = false;
  return (report) => {
    if (said || level === 'off') return;
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
