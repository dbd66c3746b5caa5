// The `ptc` command line: same runtime, headless.
import v8 from 'node:v8';
import { COMMANDS } from './commands/index.js';
import { completionScript, SHELLS, type Shell } from './completion.js';
import { commandHelp, mainHelp } from './help.js';
import { installSignalHandlers, signalExitCode } from './signals.js';
import { visibleText } from './terminal-text.js';
import { ptcVersion } from './version.js';
import { UsageError, type CliIo } from './usage-error.js';

const wantsHelp = (argv: readonly string[]): boolean => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

export async function main(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    io.stdout(mainHelp(COMMANDS));
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.stdout(`ptc ${ptcVersion()} (node ${process.versions.node})\n`);
    return 0;
  }
  if (name === 'help') {
    const topic = COMMANDS.find((c) => c.name === rest[0]);
    io.stdout(topic === undefined ? mainHelp(COMMANDS) : commandHelp(topic));
    return topic === undefined && rest.length > 0 ? 2 : 0;
  }
  if (name === 'completion') {
    const shell = rest[0];
    if (rest.length !== 1 || !(SHELLS as readonly string[]).includes(shell ?? '')) {
      if (wantsHelp(rest)) {
        io.stdout(
          `usage: ptc completion ${SHELLS.join('|')}\n\nprints a completion script; e.g. eval "$(ptc completion bash)" in ~/.bashrc\n`,
        );
        return 0;
      }
      io.stderr(`ptc completion: expected one of ${SHELLS.join('|')}\n`);
      return 2;
    }
    io.stdout(completionScript(shell as Shell, COMMANDS));
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr(
      `ptc: unknown command "${visibleText(name, { newlines: false })}" (try: ${COMMANDS.map((c) => c.name).join(', ')}, or ptc --help)\n`,
    );
    return 2;
  }
  if (wantsHelp(rest)) {
    io.stdout(commandHelp(command));
    return 0;
  }
  try {
    const code = await command.run(rest, io);
    // stopped by a signal: the shell's convention for it (130, 143, 129), whatever the command made of the stop
    return signalExitCode() ?? code;
  } catch (error) {
    if (error instanceof UsageError) {
      // the message may quote a file (a corrupt notebook or cassette): shown, never acting on the terminal
      io.stderr(`ptc ${name}: ${visibleText(error.message)}\n`);
      return 2;
    }
    io.stderr(`ptc ${name}: internal error: ${visibleText((error as Error).stack ?? String(error))}\n`);
    return 3;
  }
}

// This process's only WebAssembly is amaro's TypeScript stripper (swc, 3.5 MB), run once per program on a few lines:
// V8's background tier-up of its hot functions to optimised code cost ~2 s of CPU in a 200-cell `ptc test` (measured
// with perf: half of this process's CPU early on), CPU the sandboxed children needed. Baseline code strips a cell in
// well under a millisecond. Set before amaro's module is compiled (it is loaded on the first TypeScript run).
v8.setFlagsFromString('--liftoff-only');

// A reader that went away (`ptc run … | head`) ends the output, not the process: writes after that are dropped.
const closed = { stdout: false, stderr: false };
for (const stream of ['stdout', 'stderr'] as const) process[stream].on('error', () => (closed[stream] = true));
const io: CliIo = {
  stdout: (t) => closed.stdout || process.stdout.write(t),
  stderr: (t) => closed.stderr || process.stderr.write(t),
  terminalColumns: (stream) => (process[stream].isTTY ? process[stream].columns || 80 : undefined),
};
installSignalHandlers(io);
let finished = false;
main(process.argv.slice(2), io).then(
  (code) => {
    finished = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    finished = true;
    process.stderr.write(`ptc: ${String(error)}\n`);
    process.exitCode = 3;
  },
);
// Node ends a process whose loop has nothing left to wait on with exit code 0, silently: a command still waiting on
// something that can no longer happen would look like a success that printed nothing. Said as what it is instead.
process.on('beforeExit', () => {
  if (finished) return;
  finished = true;
  io.stderr('ptc: internal error: the command was still waiting when nothing was left that could finish it\n');
  process.exitCode = 3;
});
