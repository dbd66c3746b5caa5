// Runs one external command to completion, with its output teed into a log file and a clear error naming the command.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { signalGroup, track, untrack } from './processes.mjs';

const TAIL_CHARS = 4000;

// Resolves { stdout, stderr } on exit code 0; rejects with the exit status and the output's tail otherwise.
export async function run(command, args, { cwd, env, logFile, timeoutMs = 30 * 60_000, input } = {}) {
  if (logFile) await mkdir(path.dirname(logFile), { recursive: true });
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  log?.write(`\n$ ${command} ${args.join(' ')}\n`);
  // own process group, so a timeout or an interrupt stops whatever the command forks (node-gyp, make, cc1plus)
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  track(child.pid);
  if (input !== undefined) child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
    log?.write(d);
  });
  child.stderr.on('data', (d) => {
    stderr += d;
    log?.write(d);
  });
  const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), timeoutMs);
  const status = await new Promise((resolve) => {
    child.on('error', (error) => resolve({ error }));
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  clearTimeout(timer);
  untrack(child.pid);
  await new Promise((resolve) => (log ? log.end(resolve) : resolve()));
  if (status.error || status.code !== 0) {
    const why = status.error
      ? status.error.message
      : status.signal
        ? `signal ${status.signal}`
        : `exit code ${status.code}`;
    const tail = (stdout + stderr).slice(-TAIL_CHARS);
    const where = logFile ? ` (full log: ${logFile})` : '';
    throw new Error(`\`${command} ${args.join(' ')}\` failed: ${why}${where}\n${tail}`);
  }
  return { stdout, stderr };
}
