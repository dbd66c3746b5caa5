import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { settleTo } from '../../helpers/eventually.js';
import { describeSysv, listSysv, otherSuiteObject, removeSysv, type SysvObject } from './sysv.js';

// A live process as seen in /proc; `start` (clock ticks since boot) guards against PID reuse.
export interface ProcInfo {
  pid: number;
  ppid: number;
  start: number;
  cmdline: string;
  cwd: string | undefined;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // zombies are exited processes awaiting their reaper: not alive
    if (rest[0] === 'Z') return undefined;
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    let cwd: string | undefined;
    try {
      cwd = fs.readlinkSync(`/proc/${pid}/cwd`);
    } catch {
      cwd = undefined;
    }
    return { pid, ppid: Number(rest[1]), start: Number(rest[19]), cmdline, cwd };
  } catch {
    return undefined;
  }
}

export function allProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readProc(Number(entry));
    if (info !== undefined) out.push(info);
  }
  return out;
}

// Every live descendant of `root` (default: this test process).
export function descendants(root = process.pid, procs = allProcesses()): ProcInfo[] {
  const byParent = new Map<number, ProcInfo[]>();
  for (const p of procs) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const stack = [root];
  while (stack.length > 0) {
    for (const child of byParent.get(stack.pop() as number) ?? []) {
      out.push(child);
      stack.push(child.pid);
    }
  }
  return out;
}

// Processes that belong to a run rooted at `marker` (its cwd or a temp dir) even after they escaped the tree (setsid).
export function processesMarkedBy(marker: string, procs = allProcesses()): ProcInfo[] {
  return procs.filter(
    (p) =>
      p.pid !== process.pid &&
      (p.cmdline.includes(marker) || (p.cwd !== undefined && (p.cwd === marker || p.cwd.startsWith(`${marker}/`)))),
  );
}

export function openFdCount(): number {
  return fs.readdirSync('/proc/self/fd').length;
}

export function openFds(): string[] {
  const out: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      out.push(`${fd} -> ${fs.readlinkSync(`/proc/self/fd/${fd}`)}`);
    } catch {
      // the readdir handle itself is gone by now
    }
  }
  return out;
}

// Run temp dirs the runtime left behind under `root` (the private TMPDIR of this suite).
export function leftoverTempDirs(root: string): string[] {
  try {
    // the suite's TMPDIR holds nothing but what runs create, so every entry is a leftover
    return fs.readdirSync(root).map((name) => path.join(root, name));
  } catch {
    return [];
  }
}

// Removes a tree however deep: Node's rm gives up with ENAMETOOLONG below PATH_MAX, coreutils' rm walks with openat.
export function removeTree(dir: string): void {
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    spawnSync('rm', ['-rf', '--', dir], { stdio: 'ignore' });
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface LeakReport {
  processes: string[];
  extraFds: string[];
  tempDirs: string[];
  // System V objects created since the checker started (present only when it watches them)
  sysv?: string[];
  // run cgroups of this process still there (present only when the checker watches cgroup parents)
  cgroups?: string[];
}

export const emptyReport = (r: LeakReport): boolean =>
  r.processes.length === 0 &&
  r.extraFds.length === 0 &&
  r.tempDirs.length === 0 &&
  (r.sysv?.length ?? 0) === 0 &&
  (r.cgroups?.length ?? 0) === 0;

export interface LeakCheckerOptions {
  // extra markers (per-run cwd roots) whose processes count as ours
  markers?: () => string[];
  // watch the host's SysV IPC objects (another live suite's, told by their keys, are not this one's: sysv.ts)
  sysv?: boolean;
  // directories runs make their cgroups in (sandbox/cgroup.ts): none of this process's may outlive its run
  cgroupParents?: string[];
}

// This process's run cgroups under `parents`.
export function runCgroups(parents: readonly string[]): string[] {
  const out: string[] = [];
  for (const parent of parents) {
    try {
      for (const entry of fs.readdirSync(parent))
        if (entry.startsWith(`ptc-run-${process.pid}-`)) out.push(path.join(parent, entry));
    } catch {
      continue;
    }
  }
  return out;
}

// The quiescent check: nothing of ours running, fd count back to the baseline, no run temp dirs.
export class LeakChecker {
  readonly baselineFds: number;
  readonly #baselineFdSet: Set<string>;
  // long-lived helpers that predate the checked runs (e.g. the esbuild service of the bindings loader)
  readonly #baselineProcs: Set<string>;
  readonly #baselineSysv: Set<string> | undefined;
  readonly markers: () => string[];
  readonly #cgroupParents: string[];

  constructor(
    readonly tmpRoot: string,
    options: LeakCheckerOptions = {},
  ) {
    this.markers = options.markers ?? (() => []);
    this.#cgroupParents = options.cgroupParents ?? [];
    this.#baselineSysv = options.sysv === true ? new Set(listSysv().map(describeSysv)) : undefined;
    this.baselineFds = openFdCount();
    this.#baselineFdSet = new Set(openFds().map((l) => l.replace(/^\d+ -> /, '')));
    this.#baselineProcs = new Set(this.#candidates().map((p) => `${p.pid}/${p.start}`));
  }

  ourProcesses(): ProcInfo[] {
    return this.#candidates().filter((p) => !this.#baselineProcs.has(`${p.pid}/${p.start}`));
  }

  #candidates(): ProcInfo[] {
    const procs = allProcesses();
    const seen = new Map<number, ProcInfo>();
    for (const p of descendants(process.pid, procs)) seen.set(p.pid, p);
    for (const marker of [this.tmpRoot, ...this.markers()])
      for (const p of processesMarkedBy(marker, procs)) seen.set(p.pid, p);
    return [...seen.values()];
  }

  async check(waitMs = 3_000): Promise<LeakReport> {
    const processes = (await settleTo(() => this.ourProcesses(), waitMs)).map((p) => `${p.pid} ${p.cmdline}`);
    const fdsOk = await settleTo(() => (openFdCount() > this.baselineFds ? [1] : []), waitMs);
    const extraFds =
      fdsOk.length === 0 ? [] : openFds().filter((l) => !this.#baselineFdSet.has(l.replace(/^\d+ -> /, '')));
    const tempDirs = await settleTo(() => leftoverTempDirs(this.tmpRoot), waitMs);
    const sysv = this.#baselineSysv === undefined ? {} : { sysv: this.newSysv().map(describeSysv) };
    const cgroups =
      this.#cgroupParents.length === 0
        ? {}
        : { cgroups: await settleTo(() => runCgroups(this.#cgroupParents), waitMs) };
    return {
      ...sysv,
      ...cgroups,
      processes,
      extraFds:
        extraFds.length === 0 && fdsOk.length > 0
          ? [`fd count ${openFdCount()} > baseline ${this.baselineFds}`]
          : extraFds,
      tempDirs,
    };
  }

  // Kills whatever a failing case left behind so one leak does not cascade into every later check.
  reap(): void {
    for (const p of this.ourProcesses()) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const dir of leftoverTempDirs(this.tmpRoot)) removeTree(dir);
    removeSysv(this.newSysv());
  }

  // SysV objects that were not there when the checker started (none when it does not watch them).
  newSysv(): SysvObject[] {
    const baseline = this.#baselineSysv;
    return baseline === undefined
      ? []
      : listSysv().filter((o) => !baseline.has(describeSysv(o)) && !otherSuiteObject(o));
  }
}
