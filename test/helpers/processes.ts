import fs from 'node:fs';

// Whether `pid` is a running process; an exited one not yet reaped (a zombie) is not. Linux /proc.
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name in parentheses may itself contain spaces or parentheses
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// The parent of `pid` (the field after the state in /proc/<pid>/stat), or undefined when it is gone.
export function parentPid(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

// Live processes whose command line is exactly `argv`: a program's marked grandchild (`/bin/sleep 31`) found from the
// host.
export function processesRunning(argv: readonly string[]): number[] {
  const cmdline = argv.map((arg) => `${arg}\0`).join('');
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') === cmdline;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter(alive);
}
