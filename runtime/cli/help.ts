import { shownFlags, type CliCommand, type FlagSpec } from './usage-error.js';

// What every command's exit code means (a command adds its own with `exitCodes`).
export const EXIT_CODES = [
  '0    success',
  '2    misuse: a bad flag or value, a missing or unreadable file, an invalid bindings module or cassette; or\n     --sandbox required where neither the OS sandbox nor a WebAssembly engine runs the language',
  '3    internal error of ptc (a bug: please report it with `ptc doctor`)',
  '129  stopped by SIGHUP, 130 by SIGINT (Ctrl-C), 143 by SIGTERM',
];

// The codes a command can exit with, each once and in numeric order: its own meaning of a code (eval's 0) replaces the
// shared one.
function exitCodeLines(command: CliCommand): string[] {
  const code = (line: string): number => Number.parseInt(line, 10);
  const own = (command.exitCodes ?? []).map((c) => c.replace(/^(\d+)\s+/, (_, n: string) => n.padEnd(5)));
  const shared = EXIT_CODES.filter((line) => !own.some((o) => code(o) === code(line)));
  return [...shared, ...own].sort((a, b) => code(a) - code(b));
}

const flagText = (name: string, spec: FlagSpec): string => {
  const short = spec.short === undefined ? '' : `-${spec.short}, `;
  const value =
    spec.type === 'boolean' ? '' : ` ${spec.choices === undefined ? (spec.value ?? 'VALUE') : spec.choices.join('|')}`;
  return `${short}--${name}${value}`;
};

// `ptc <command> --help`: synopsis, every flag with its default, exit codes, examples.
export function commandHelp(command: CliCommand): string {
  const lines = [
    `ptc ${command.name} — ${command.summary}`,
    '',
    'usage:',
    `  ${command.usage.replaceAll('\n', '\n  ')}`,
    '',
    'options:',
  ];
  const entries = shownFlags(command.flags).map(([name, spec]) => [flagText(name, spec), spec] as const);
  const width = Math.min(36, Math.max(...entries.map(([text]) => text.length), '-h, --help'.length));
  for (const [text, spec] of entries) {
    const byDefault = spec.byDefault === undefined ? '' : ` (default: ${spec.byDefault})`;
    lines.push(`  ${text.padEnd(width)}  ${spec.help}${byDefault}`);
  }
  lines.push(`  ${'-h, --help'.padEnd(width)}  show this help`);
  lines.push('', 'exit codes:', ...exitCodeLines(command).map((c) => `  ${c}`));
  lines.push('', 'examples:');
  for (const example of command.examples) lines.push(...example.split('\n').map((l) => `  ${l}`), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

// `ptc --help`: the commands, and where to read more.
export function mainHelp(commands: readonly CliCommand[]): string {
  const lines = ['usage: ptc <command> [options]', '', 'commands:'];
  for (const c of commands) lines.push(`  ${c.name.padEnd(11)} ${c.summary}`);
  lines.push(`  ${'completion'.padEnd(11)} print a shell completion script: ptc completion bash|zsh|fish`);
  lines.push(
    '',
    'options:',
    '  -h, --help     show help (ptc <command> --help for a command)',
    '  -V, --version  show the version',
  );
  lines.push(
    '',
    'exit codes:',
    ...EXIT_CODES.map((c) => `  ${c}`),
    '  1    see each command (a program, cell or check failed)',
  );
  return `${lines.join('\n')}\n`;
}
