import path from 'node:path';
import type { CliIo } from './usage-error.js';

// The bindings' own console output and errors go to stderr, each line labelled as theirs (never the program's).
export function bindingsLog(io: CliIo, modulePath: string | undefined): (entry: { stream: 'stdout' | 'stderr'; text: string }) => void {
  const label = modulePath === undefined ? 'bindings' : `bindings ${path.basename(modulePath)}`;
  return (entry) => io.stderr(`[${label}] ${entry.text}\n`);
}
