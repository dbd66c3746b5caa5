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
