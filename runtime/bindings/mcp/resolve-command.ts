import fs from 'node:fs';
import path from 'node:path';

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// The server executable as an absolute path (looked up on PATH like a shell would), so a missing one fails as ENOENT
// here rather than inside the wrapper that ties the server's life to this process.
export function resolveCommand(
  command: string,
  cwd: string | undefined,
  env: Record<string, string> | undefined,
): string {
  const missing = (): never => {
    const error = new Error(`spawn ${command} ENOENT`) as NodeJS.ErrnoException;
    error.code = 'ENOENT';
    throw error;
  };
  if (command.length === 0) return missing();
  if (command.includes('/') || command.includes(path.sep)) {
    const absolute = path.resolve(cwd ?? process.cwd(), command);
    return executable(absolute) ? absolute : missing();
  }
  for (const dir of (env?.PATH ?? process.env.PATH ?? '').split(path.delimiter)) {
    if (dir.length === 0) continue;
    const candidate = path.resolve(cwd ?? process.cwd(), dir, command);
    if (executable(candidate)) return candidate;
  }
  return missing();
}
