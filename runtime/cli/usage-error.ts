import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

// Misuse of the command line (exit 2): missing file, bad flag, invalid bindings module.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

// The one file a command takes (`what`: "notebook file"); none or more than one is misuse, worded alike by every
// command.
export function oneFile(positionals: readonly string[], what: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? `missing ${what}` : `expected one ${what}, got ${positionals.length}`,
    );
  return positionals[0] as string;
}

// One flag of a command: how it parses, and what `--help` and the completion scripts say of it.
export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  // the value's name in help (`--timeout-ms N`), or the words it takes (completion offers them)
  value?: string;
  choices?: readonly string[];
  // the value used when the flag is absent, as help shows it
  byDefault?: string;
  help: string;
  // an old spelling of the flag named here: still parsed (into that flag's value), with a warning; absent from help
  // and completion, so every command shows one spelling per idea
  aliasOf?: string;
  // for a boolean old spelling: the value of `aliasOf` it stands for (`--live` is `--mode live`)
  aliasValue?: string;
}

// The flags a command shows (help, completion): not the old spellings.
export function shownFlags(flags: FlagSpecs): [string, FlagSpec][] {
  return Object.entries(flags).filter(([, spec]) => spec.aliasOf === undefined);
}

export type FlagSpecs = Record<string, FlagSpec>;

type ParseOptionsOf<F extends FlagSpecs> = {
  [K in keyof F]: { type: F[K]['type']; multiple: F[K] extends { multiple: true } ? true : false };
};
type ParsedCommandLine<O extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O }>
>;

// Parses a command's flags and positionals strictly (node:util parseArgs); its complaints become UsageErrors in our
// words: the flag, the closest one it may have meant, where help is.
export function parseCommandLine<const F extends FlagSpecs>(
  argv: string[],
  flags: F,
  command?: string,
  warn: (message: string) => void = (message) => process.stderr.write(message),
): ParsedCommandLine<ParseOptionsOf<F>> {
  const options: ParseArgsOptionsConfig = {};
  for (const [name, spec] of Object.entries(flags)) {
    options[name] = {
      type: spec.type,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.multiple === true ? { multiple: true } : {}),
    };
  }
  let parsed: ParsedCommandLine<ParseOptionsOf<F>>;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options }) as unknown as ParsedCommandLine<
      ParseOptionsOf<F>
    >;
  } catch (error) {
    throw new UsageError(explainParseError(error as Error & { code?: string }, flags, command));
  }
  const values = parsed.values as Record<string, unknown>;
  for (const [name, spec] of Object.entries(flags)) {
    if (spec.aliasOf === undefined || values[name] === undefined) continue;
    const now = `--${spec.aliasOf}${spec.aliasValue === undefined ? '' : ` ${spec.aliasValue}`}`;
    if (values[spec.aliasOf] !== undefined)
      throw new UsageError(`--${name} is an old spelling of ${now}: give one of them`);
    values[spec.aliasOf] = spec.aliasValue ?? values[name];
    delete values[name];
    warn(`ptc${command === undefined ? '' : ` ${command}`}: --${name} is now ${now} (the old spelling still works)\n`);
  }
  return parsed;
}

function explainParseError(error: Error & { code?: string }, flags: FlagSpecs, command: string | undefined): string {
  const help = command === undefined ? '' : ` (see: ptc ${command} --help)`;
  const quoted = /'(-{1,2}[^'\s]*)/.exec(error.message)?.[1];
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) {
    const near = closest(quoted.replace(/^-+/, '').split('=')[0] ?? '', Object.keys(flags));
    return `unknown option ${quoted}${near === undefined ? '' : ` (did you mean --${near}?)`}${help}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    const name = quoted.replace(/^-+/, '').split(/[\s=]/)[0] ?? '';
    const spec = flags[name] ?? Object.entries(flags).find(([, f]) => f.short === name)?.[1];
    return spec?.type === 'boolean'
      ? `--${name} takes no value${help}`
      : `--${name} needs a value${spec?.value === undefined ? '' : ` (${spec.value})`}${help}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument${help}`;
  return `${error.message}${help}`;
}

// The flag within two edits of `name` (a typo), if one is.
function closest(name: string, names: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = editDistance(name, candidate);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  // the terminal's width where the stream is one, else undefined (not given: never a terminal)
  terminalColumns?: (stream: 'stdout' | 'stderr') => number | undefined;
}

export interface CliCommand {
  name: string;
  summary: string;
  // the synopsis: `ptc run <file> [options]`
  usage: string;
  // every flag the command takes (help, completion, parsing)
  flags: FlagSpecs;
  // what its exit codes mean beyond the common ones (main.ts's EXIT_CODES)
  exitCodes?: string[];
  // two command lines that show it in use, each with a comment
  examples: string[];
  // resolves to the process exit code
  run(argv: string[], io: CliIo): Promise<number>;
}
