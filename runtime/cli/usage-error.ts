// Misuse of the command line (exit 2): missing file, bad flag, invalid bindings module.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

// Runs a command-line parse (node:util parseArgs) with its complaints (an unknown flag, a missing value) as UsageErrors.
export function usageErrors<T>(parse: () => T): T {
  try {
    return parse();
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
