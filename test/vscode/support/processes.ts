// Descendants of the extension host, read from /proc: the cancellation suite checks that a stopped cell's process is
// gone.
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  ppid: number;
  cmdline: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name in parentheses may itself contain spaces or parentheses
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z') return undefined;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    return { pid, ppid: Number(rest[1]), cmdline };
  } catch {
    return undefined;
  }
}

export function supported(): boolean {
  return process.platform === 'linux';
}

// Every live (non-zombie) process below `root`, the extension host by default.
export function descendants(root = process.pid): ProcessInfo[] {
  const all: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProcess(Number(name));
    if (info) all.push(info);
  }
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const out: ProcessInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    for (const child of children.get(pid) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

// running, not a zombie: the one definition every suite shares
export { alive } from '../../helpers/processes.js';
