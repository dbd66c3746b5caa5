import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

const exec = promisify(execFile);
export const CLI = path.resolve('dist/cli.mjs');
// far above any one command's run; below the 180 s the slowest CLI tests allow
export const CLI_KILL_MS = 150_000;

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

// Runs the built `ptc` CLI as a real process; a non-zero exit is an outcome, not a throw.
export function ptc(...args: string[]): Promise<CliOutcome> {
  return ptcWith({ env: process.env }, ...args);
}

// The same, with the CLI's environment (and working directory) given.
export async function ptcWith(
  options: { env?: NodeJS.ProcessEnv; cwd?: string },
  ...argv: string[]
): Promise<CliOutcome> {
  const env = options.env ?? process.env;
  try {
    // a `ptc` that never exits fails its test with what it printed, not a bare vitest timeout
    const { stdout, stderr } = await exec(process.execPath, [CLI, ...argv], {
      encoding: 'utf8',
      env,
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      maxBuffer: 512 * 1024 * 1024,
      timeout: CLI_KILL_MS,
      killSignal: 'SIGKILL',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

// A private temp folder for one test file, removed after it; `write` puts a file in it and returns its path.
export function scratchDir(prefix: string): { dir: string; write(name: string, text: string): string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, text);
      return file;
    },
  };
}

// A `ptc` command in `bin` (made if missing) running the given build of the CLI, as `npm install -g` would leave one.
export function ptcShim(bin: string, cli: string = CLI): void {
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'ptc'), `#!/bin/sh\nexec '${process.execPath}' '${cli}' "$@"\n`, { mode: 0o755 });
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

// `ptc` under a real pseudo-terminal (util-linux's `script`): what the terminal received, both streams as one.
export async function ptcOnTerminal(
  options: { env: NodeJS.ProcessEnv; cwd?: string },
  ...argv: string[]
): Promise<string> {
  const command = [process.execPath, CLI, ...argv].map(quote).join(' ');
  try {
    const { stdout } = await exec('script', ['-q', '-e', '-c', command, '/dev/null'], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: options.env,
      encoding: 'utf8',
      timeout: CLI_KILL_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    return (error as { stdout: string }).stdout;
  }
}

// Whether `script` gives this machine a terminal (the pseudo-terminal tests run only where it does).
export const terminalWorks = await exec('script', ['-q', '-e', '-c', 'test -t 1', '/dev/null']).then(
  () => true,
  () => false,
);
