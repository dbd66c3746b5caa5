import { spawn } from 'node:child_process';
import path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..', '..', '..');
export const PTC_CLI = path.join(REPO, 'dist', 'cli.mjs');
export const EXAMPLE_BINDINGS = path.join(REPO, 'examples', 'programs', 'tools.bindings.mjs');

// `ptc run … --json` from dist/: resolves with the printed JSON whatever the exit code (failed runs exit 1).
export function ptcRunJson(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [PTC_CLI, 'run', ...args, '--json'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      out.trim() === ''
        ? reject(new Error(`ptc run ${args.join(' ')} exited ${code} without JSON:\n${err}`))
        : resolve(out),
    );
  });
}
