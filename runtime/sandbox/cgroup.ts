import fs from 'node:fs';
import path from 'node:path';
import { signalReaches } from '../process/launch.js';
import { TASK_LIMIT } from './run-limits.js';
import { errorMessage } from '../output/error-message.js';
import { delay } from '../process/timers.js';

// A cgroup per run: the one bound on what a program makes the kernel hold for it. tmpfs pages, inodes and xattrs,
// dentries (negative ones too), pipe and socket buffers, page tables: none of it is in any process's RSS, so no
// rlimit counts it and the OOM killer would pick host processes. A memory cgroup charges all of it to the run, and a
// pids cgroup counts its tasks once more. Created where this host can: the v1 controllers as root (kernel memory is
// charged there too on current kernels), or a cgroup v2 tree this host may write (root, or a delegated subtree).
// A run joins its cgroup before it execs (process/exec-prelude.ts); the sandbox proof checks from the host side that
// the probe ran inside it with the limit in force, and only then reports the layer.

export type CgroupVersion = 1 | 2;

export interface CgroupHost {
  version: CgroupVersion;
  // directories new run cgroups are made in: the memory one, and (v1) the pids one
  memoryParent: string;
  pidsParent: string | undefined;
}

export interface CgroupLimits {
  memoryBytes: number;
  tasks: number;
}

// One run's cgroup(s): made before the launch, removed when the run's processes are gone.
export interface RunCgroup {
  // the files the child writes its pid into before it execs
  procs: string[];
  limits: CgroupLimits;
  // the kernel killed a task of the run because the run reached its memory bound
  oomKilled(): boolean;
  // every pid still in the run's cgroup
  members(): number[];
  // the memory bound the kernel holds, and the most the run was ever charged (bytes; undefined when unreadable)
  accounting(): { limit: number | undefined; peak: number | undefined };
  // kills what is left inside and removes the directories (bounded; idempotent)
  remove(): Promise<void>;
}

const FILES = {
  1: {
    limit: 'memory.limit_in_bytes',
    peak: 'memory.max_usage_in_bytes',
    swap: 'memory.memsw.limit_in_bytes',
    oom: 'memory.oom_control',
    pids: 'pids.max',
  },
  2: { limit: 'memory.max', peak: 'memory.peak', swap: 'memory.swap.max', oom: 'memory.events', pids: 'pids.max' },
} as const;

// Run cgroups carry the host's pid, so a later host can tell its dead predecessors' leftovers from live ones.
const PREFIX = 'ptc-run-';
let counter = 0;

interface Mount {
  point: string;
  root: string;
  version: CgroupVersion;
  controllers: string[];
}

// cgroup mounts from /proc/self/mountinfo: mount point, the root of the hierarchy seen there, and controllers.
function cgroupMounts(): Mount[] {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const out: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const fields = left.split(' ');
    const [fstype, , superOptions] = right.split(' ');
    const root = fields[3];
    const point = fields[4];
    if (root === undefined || point === undefined) continue;
    if (fstype === 'cgroup2') out.push({ point: unescape(point), root: unescape(root), version: 2, controllers: [] });
    else if (fstype === 'cgroup')
      out.push({
        point: unescape(point),
        root: unescape(root),
        version: 1,
        controllers: (superOptions ?? '').split(','),
      });
  }
  return out;
}

// mountinfo escapes space, tab, newline and backslash as octal
function unescape(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

// This process's cgroup per hierarchy (/proc/self/cgroup): controller list (or '' for v2) → path.
function ownCgroups(): Map<string, string> {
  const out = new Map<string, string>();
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (match !== null) out.set(match[1] as string, match[2] as string);
  }
  return out;
}

// The directory of cgroup `own` (a path in the hierarchy) under a mount whose root is `mount.root`.
function dirOf(mount: Mount, own: string): string | undefined {
  const root = mount.root === '/' ? '' : mount.root;
  if (own !== root && !own.startsWith(`${root}/`)) return undefined;
  return path.join(mount.point, own.slice(root.length));
}

function writable(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

// Where this host can make run cgroups, or why not (for the report's `missing`).
export function findCgroupHost(): { host: CgroupHost } | { problem: string } {
  if (process.platform !== 'linux') return { problem: `no cgroups on ${process.platform}` };
  const mounts = cgroupMounts();
  const own = ownCgroups();
  const v1Memory = mounts.find((m) => m.version === 1 && m.controllers.includes('memory'));
  if (v1Memory !== undefined) {
    const ownPath = [...own.entries()].find(([controllers]) => controllers.split(',').includes('memory'))?.[1];
    const memoryParent = ownPath === undefined ? undefined : dirOf(v1Memory, ownPath);
    const v1Pids = mounts.find((m) => m.version === 1 && m.controllers.includes('pids'));
    const pidsPath = [...own.entries()].find(([controllers]) => controllers.split(',').includes('pids'))?.[1];
    const pidsDir = v1Pids === undefined || pidsPath === undefined ? undefined : dirOf(v1Pids, pidsPath);
    if (memoryParent === undefined || !writable(memoryParent))
      return {
        problem:
          'the cgroup v1 memory controller is not writable here (run as root, or give this user a memory cgroup)',
      };
    return {
      host: { version: 1, memoryParent, pidsParent: pidsDir !== undefined && writable(pidsDir) ? pidsDir : undefined },
    };
  }
  const unified = mounts.find((m) => m.version === 2);
  if (unified === undefined) return { problem: 'no cgroup hierarchy is mounted' };
  const ownPath = own.get('');
  const dir = ownPath === undefined ? undefined : dirOf(unified, ownPath);
  if (dir === undefined) return { problem: 'this process is not in the mounted cgroup v2 hierarchy' };
  // v2 lets no cgroup hold processes and enable controllers for children at once: runs go into a subtree of their
  // own beside this process, under the nearest writable ancestor that delegates memory and pids
  // the root cgroup may hold processes and delegate at once
  const candidates: string[] = [];
  for (let parent = dir === unified.point ? dir : path.dirname(dir); ; parent = path.dirname(parent)) {
    candidates.push(parent);
    if (parent === unified.point || !parent.startsWith(`${unified.point}/`)) break;
  }
  for (const parent of candidates) {
    const controllers = (read(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/);
    if (controllers.includes('memory') && controllers.includes('pids') && writable(parent)) {
      const memoryParent = path.join(parent, 'ptc-playground');
      try {
        fs.mkdirSync(memoryParent, { recursive: true });
        fs.writeFileSync(path.join(memoryParent, 'cgroup.subtree_control'), '+memory +pids');
        return { host: { version: 2, memoryParent, pidsParent: undefined } };
      } catch (error) {
        return { problem: `could not prepare a cgroup v2 subtree in ${parent} (${errorMessage(error)})` };
      }
    }
  }
  return {
    problem:
      'no writable cgroup v2 subtree delegates the memory and pids controllers to this user (systemd: run under a unit with Delegate=yes)',
  };
}

// Makes one run's cgroup(s) with their limits; throws (and leaves nothing behind) when the kernel refuses.
export function createRunCgroup(host: CgroupHost, limits: CgroupLimits): RunCgroup {
  const name = `${PREFIX}${process.pid}-${++counter}`;
  const files = FILES[host.version];
  const memoryDir = path.join(host.memoryParent, name);
  const pidsDir = host.version === 1 && host.pidsParent !== undefined ? path.join(host.pidsParent, name) : undefined;
  const dirs = [memoryDir, ...(pidsDir === undefined ? [] : [pidsDir])];
  try {
    fs.mkdirSync(memoryDir);
    fs.writeFileSync(path.join(memoryDir, files.limit), String(limits.memoryBytes));
    // no swap beyond the bound (memsw counts memory + swap; v2's swap.max is swap alone)
    const swap = path.join(memoryDir, files.swap);
    if (fs.existsSync(swap)) fs.writeFileSync(swap, host.version === 1 ? String(limits.memoryBytes) : '0');
    if (host.version === 2) fs.writeFileSync(path.join(memoryDir, files.pids), String(limits.tasks));
    if (pidsDir !== undefined) {
      fs.mkdirSync(pidsDir);
      fs.writeFileSync(path.join(pidsDir, files.pids), String(limits.tasks));
    }
  } catch (error) {
    for (const dir of dirs) rmdirQuietly(dir);
    throw error;
  }
  let removed: Promise<void> | undefined;
  const members = (): number[] => {
    const pids = new Set<number>();
    for (const dir of dirs)
      for (const line of (read(path.join(dir, 'cgroup.procs')) ?? '').split('\n'))
        if (/^\d+$/.test(line)) pids.add(Number(line));
    return [...pids];
  };
  return {
    procs: dirs.map((dir) => path.join(dir, 'cgroup.procs')),
    limits,
    oomKilled: () => /^oom_kill\s+[1-9]/m.test(read(path.join(memoryDir, files.oom)) ?? ''),
    accounting: () => ({
      limit: number(read(path.join(memoryDir, files.limit))),
      peak: number(read(path.join(memoryDir, files.peak))),
    }),
    members,
    remove: () => (removed ??= removeDirs(dirs, members)),
  };
}

function number(text: string | undefined): number | undefined {
  const value = Number(text?.trim());
  return text === undefined || !Number.isSafeInteger(value) ? undefined : value;
}

function rmdirQuietly(dir: string): boolean {
  try {
    fs.rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

// rmdir succeeds once no task is left; what is still inside (a process that escaped the kill of its tree) is
// killed first. Bounded: a cgroup that cannot go is left for the next host's sweep.
async function removeDirs(dirs: string[], members: () => number[]): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    for (const pid of members()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (dirs.map(rmdirQuietly).every(Boolean)) return;
    await delay(20);
  }
}

// Removes run cgroups left by hosts that died (their pid is gone): a crash must not leak them.
export function sweepStaleCgroups(host: CgroupHost): void {
  for (const parent of [host.memoryParent, host.pidsParent]) {
    if (parent === undefined) continue;
    let entries: string[];
    try {
      entries = fs.readdirSync(parent);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const owner = new RegExp(`^${PREFIX}(\\d+)-\\d+$`).exec(entry)?.[1];
      if (owner === undefined || signalReaches(Number(owner))) continue;
      rmdirQuietly(path.join(parent, entry));
    }
  }
}

// The cgroup a process is in, per hierarchy, from the host side (the program's own view is its cgroup namespace).
export function cgroupOf(pid: number): string | undefined {
  return read(`/proc/${pid}/cgroup`);
}

// What a run's launch asks of RunChild: its cgroup, made just before the spawn.
export interface RunCgroupRequest {
  host: CgroupHost;
  limits: CgroupLimits;
}

// A run's cgroup request under this host, or undefined where the host can make none.
export function runCgroupRequest(
  host: { cgroups: CgroupHost | undefined },
  spec: { memoryMb: number; tmpMb: number },
): RunCgroupRequest | undefined {
  if (host.cgroups === undefined) return undefined;
  return { host: host.cgroups, limits: { memoryBytes: runMemoryBound(spec), tasks: RUN_TASKS } };
}

// The program's tasks plus bubblewrap's two, the shim and setpriv's moment before it execs
export const RUN_TASKS = TASK_LIMIT + 4;

// The kernel bound a run gets: the program's memory plus its temp dir (tmpfs pages are charged to the run), and room
// for the interpreter and what the kernel holds for it; a run can make the kernel hold no more than this.
export function runMemoryBound(options: { memoryMb: number; tmpMb: number }): number {
  return (options.memoryMb + options.tmpMb + KERNEL_ALLOWANCE_MB) * 1024 * 1024;
}

// The interpreter's own resident memory (~40-60 MB) and ordinary kernel objects beside the program's heap.
export const KERNEL_ALLOWANCE_MB = 128;
