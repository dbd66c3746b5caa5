import { parseArgs, type ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

// Misuse of the command line (exit 2): missing file, bad flag, invalid bindings module.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

type ParsedCommandLine<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: O }>>;

// Parses a command's flags and positionals strictly (node:util parseArgs); its complaints (an unknown flag, a missing
// value) become UsageErrors.
export function parseCommandLine<const O extends ParseArgsOptionsConfig>(argv: string[], options: O): ParsedCommandLine<O> {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  // resolves to the process exit code
  run(argv: string[], io: CliIo): Promise<number>;
}
