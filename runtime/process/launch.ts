import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { preludeArgv } from './exec-prelude.js';

export interface LaunchOptions {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  // number of extra pipe descriptors after stdio (fd 3, 4, …)
  extraPipes: number;
  // bytes for descriptors after the pipes (fd 3 + extraPipes, …), written once and closed (a seccomp program)
  feeds?: Buffer[];
  // existing sockets the child inherits after the pipes and feeds (a bindings host connection)
  inherit?: Socket[];
  // argv starts a PID namespace whose init takes every descendant with it: no /proc scan needed at kill time
  ownPidNamespace?: boolean;
  // argv already makes the child die with this process (bubblewrap's --die-with-parent): no setpriv prefix
  diesWithParent?: boolean;
  // cgroup.procs files the child joins before it execs (sandbox/cgroup.ts: the run's kernel memory and task bounds)
  cgroupProcs?: readonly string[];
  // a host descriptor deliberately left open at this number in the child, past every kept one: the sandbox proof's
  // check that the prelude closes what the host leaks
  decoy?: { fd: number; at: number };
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface LaunchedChild {
  pid: number | undefined;
  stdout: Readable;
  stderr: Readable;
  pipes: (Readable & Writable)[];
  // resolves once the process exited and every pipe closed
  closed: Promise<ExitInfo>;
  spawnError: Promise<Error>;
  killTree(): void;
  // kills every process whose argv carries `marker` (a path unique to this child): what escaped killTree
  killMarked(marker: string): void;
  // closes this process's ends of the child's pipes, so a process that holds them cannot keep this one alive
  release(): void;
}

let deathSignalPrefix: string[] | undefined;

// `setpriv --pdeathsig KILL` (util-linux): if the host itself dies, even mid hot-loop, the kernel kills the child.
export function parentDeathPrefix(): string[] {
  if (deathSignalPrefix !== undefined) return deathSignalPrefix;
  deathSignalPrefix = [];
  if (process.platform !== 'linux') return deathSignalPrefix;
  for (const candidate of ['/usr/bin/setpriv', '/bin/setpriv']) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      deathSignalPrefix = [candidate, '--pdeathsig', 'KILL'];
      break;
    } catch {
      continue;
    }
  }
  return deathSignalPrefix;
}

// Spawns a child in its own process group, so the whole group can be killed at settlement; only the descriptors
// the child is given here cross into it (process/exec-prelude.ts closes the rest before anything else runs).
export function launchChild(options: LaunchOptions): LaunchedChild {
  const stdio: ('ignore' | 'pipe' | Socket | number)[] = ['ignore', 'pipe', 'pipe'];
  const feeds = options.feeds ?? [];
  for (let i = 0; i < options.extraPipes + feeds.length; i++) stdio.push('pipe');
  stdio.push(...(options.inherit ?? []));
  const keep = stdio.length;
  if (options.decoy !== undefined) {
    if (options.decoy.at < keep) throw new RangeError('launchChild: the decoy must lie past every kept descriptor');
    while (stdio.length < options.decoy.at) stdio.push('ignore');
    stdio.push(options.decoy.fd);
  }
  const prelude = preludeArgv({ keep, cgroupProcs: options.cgroupProcs });
  const [command, ...args] = [
    ...prelude,
    ...(options.diesWithParent === true ? [] : parentDeathPrefix()),
    ...options.argv,
  ];
  if (command === undefined) throw new TypeError('launchChild: empty argv');
  let spawnErrorResolve: (error: Error) => void = () => undefined;
  const spawnError = new Promise<Error>((resolve) => (spawnErrorResolve = resolve));
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio,
    detached: true,
    windowsHide: true,
  });
  const pid = child.pid;
  // a descendant snapshot taken before the kill catches grandchildren that left the group (setsid)
  let exited = false;
  const killTree = (): void => {
    if (pid === undefined) return;
    // once reaped, `pid` may name someone else's process: only the group it led, if that group outlived it
    const targets = exited
      ? options.ownPidNamespace !== true && orphanedGroupRemains(pid)
        ? [-pid]
        : []
      : [-pid, pid];
    // the scan costs milliseconds per run; once `pid` is reaped nothing is its descendant any more
    const descendants = options.ownPidNamespace === true || exited ? [] : listDescendants(pid);
    for (const target of [...targets, ...descendants]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  const closed = new Promise<ExitInfo>((resolve) => {
    child.once('close', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      spawnErrorResolve(error);
      resolve({ code: null, signal: null });
    });
  });
  for (const stream of child.stdio) stream?.on('error', () => undefined);
  feeds.forEach((bytes, i) => (child.stdio[3 + options.extraPipes + i] as Writable | null)?.end(bytes));
  return {
    pid,
    killMarked: (marker) => {
      for (const target of processesCarrying(marker)) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
    release: () => {
      for (const stream of child.stdio) stream?.destroy();
    },
    stdout: child.stdout as Readable,
    stderr: child.stderr as Readable,
    pipes: child.stdio.slice(3, 3 + options.extraPipes) as (Readable & Writable)[],
    closed,
    spawnError,
    killTree,
  };
}

// Decodes the exit status reported through the `sh` shim that runs the program as PID 2 of its namespace.
export function decodeShimExit(info: ExitInfo, viaShim: boolean): ExitInfo {
  if (!viaShim || info.code === null || info.code <= 128) return info;
  const n = info.code - 128;
  const name = Object.entries(os.constants.signals).find(([, v]) => v === n)?.[0] as NodeJS.Signals | undefined;
  return name === undefined ? info : { code: null, signal: name };
}

// The pid entries of /proc (Linux); empty elsewhere.
function procEntries(): string[] {
  try {
    return fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
}

// Every process (other than this one) with `marker` in one of its arguments, from /proc (Linux); empty elsewhere.
export function processesCarrying(marker: string): number[] {
  const out: number[] = [];
  for (const entry of procEntries()) {
    if (Number(entry) === process.pid) continue;
    try {
      // arguments are NUL-separated: the marker must end at a path separator or an argument's end
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (argv.includes(`${marker}/`) || argv.includes(`${marker}\0`)) out.push(Number(entry));
    } catch {
      continue;
    }
  }
  return out;
}

// Whether group `pgid` outlived its reaped leader: the group still exists (a member carries the id, so the kernel hands
// it to no new process) and no process has it as its pid (that would be a stranger leading a new group of that id).
// Two signal-0 probes: no /proc scan on the path every run's teardown takes.
function orphanedGroupRemains(pgid: number): boolean {
  return signalReaches(-pgid) && !signalReaches(pgid);
}

// Whether a process (or, negative, a process group) exists to be signalled; EPERM: it exists, it is not ours.
export function signalReaches(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// Every live descendant of `root`, from /proc (Linux); empty elsewhere.
export function listDescendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of procEntries()) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const next = children.get(stack.pop() as number) ?? [];
    for (const pid of next) {
      out.push(pid);
      stack.push(pid);
    }
  }
  return out;
}
