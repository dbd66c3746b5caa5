// Misuse of the command line (exit 2): missing file, bad flag, invalid bindings module.
export class UsageError extends Error {
  override readonly name = 'UsageError';
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
