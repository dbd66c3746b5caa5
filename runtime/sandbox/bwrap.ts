import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxHost } from './sandbox-host.js';

// The one OS-level confinement of both languages, as a bubblewrap argv (docs/sandbox.md describes each layer).

export interface BindMount {
  source: string;
  dest: string;
}

export interface ConfinementOptions {
  host: SandboxHost;
  // read-only binds besides the system libraries (the interpreter, the runner's own files)
  binds: BindMount[];
  // size of the tmpfs that is the program's /tmp and working directory
  tmpBytes: number;
  // descriptor bubblewrap reads the seccomp program from
  seccompFd: number | undefined;
  command: string[];
}

// Where the sandbox's own files appear inside (the runner, a bootstrap, setpriv, prlimit).
export const SANDBOX_DIR = '/ptc';
export const SANDBOX_TMP = '/tmp';
// Where bubblewrap itself is started: the program starts in SANDBOX_TMP and cannot see it, so it is the same for every
// run (a spare started for one notebook's folder can serve another's)
export const BWRAP_LAUNCH_CWD = '/';

// the run's task and descriptor limits live in run-limits.ts (the cgroup needs them too, without this file)
export { FILE_LIMIT, TASK_LIMIT } from './run-limits.js';
import { FILE_LIMIT, TASK_LIMIT } from './run-limits.js';

// A root host runs each sandbox as a uid of its own, so the kernel's per-user counts (tasks for RLIMIT_NPROC,
// inotify instances, pipe buffer pages, queued signals) are that run's alone: one run cannot use up another's.
// The range is one systemd leaves unused (below its foreign-uid range, above its container ranges).
export const SANDBOX_UID_BASE = 0x70000000;
export const SANDBOX_UID_SPAN = 1 << 24;
const newSandboxUid = (): string => String(SANDBOX_UID_BASE + randomInt(SANDBOX_UID_SPAN));

// The same argv with a uid of its own: a launch planned once must still give each child its own uid.
export function withFreshUid(argv: readonly string[]): string[] {
  const id = newSandboxUid();
  return argv.map((arg) =>
    arg.startsWith('--reuid=') ? `--reuid=${id}` : arg.startsWith('--regid=') ? `--regid=${id}` : arg,
  );
}

export function isSandboxUid(uid: number): boolean {
  return uid >= SANDBOX_UID_BASE && uid < SANDBOX_UID_BASE + SANDBOX_UID_SPAN;
}

// Shared libraries the interpreters load; /usr/bin, /usr/sbin, /usr/share, /etc, /home, /root, /var… stay outside.
const LIBRARY_DIRS = ['/usr/lib', '/usr/lib64', '/usr/lib32', '/usr/libx32', '/usr/local/lib'];
// on merged-/usr systems these are symlinks into /usr and are recreated as such
const TOP_LIBRARY_DIRS = ['/lib', '/lib64', '/lib32', '/libx32'];
// what the dynamic loader and time-zone code read; no user database, no host names
const SYSTEM_FILES = ['/etc/ld.so.cache', '/etc/localtime', '/etc/timezone', '/usr/share/zoneinfo'];

// Character devices a program may open: no tty, no ptmx (the pty pool is machine-wide), no shm (memory no bound
// counts).
const DEVICES = ['null', 'zero', 'full', 'random', 'urandom'];
const DEVICE_LINKS = [
  ['fd', '/proc/self/fd'],
  ['stdin', '/proc/self/fd/0'],
  ['stdout', '/proc/self/fd/1'],
  ['stderr', '/proc/self/fd/2'],
] as const;
// The host's kernel command line and boot id identify the machine and say nothing a program needs; covered by a
// nodev bind of /dev/null, reading them fails with EACCES.
const HIDDEN_PROC_FILES = ['/proc/cmdline', '/proc/sys/kernel/random/boot_id'];

// Dirs bubblewrap would create 0700 on the way to a mount point: made 0755 first, so the unprivileged uid can pass.
function ancestors(dest: string): string[] {
  const out: string[] = [];
  for (let dir = path.posix.dirname(dest); dir !== '/'; dir = path.posix.dirname(dir)) out.unshift(dir);
  return out;
}

function exists(p: string): boolean {
  try {
    fs.statSync(p);
    return true;
  } catch {
    return false;
  }
}

// Every read-only bind of a run: system libraries and files, then the caller's, minus those already covered.
export function systemBinds(extra: BindMount[]): { binds: BindMount[]; symlinks: { target: string; dest: string }[] } {
  const binds: BindMount[] = [];
  const symlinks: { target: string; dest: string }[] = [];
  for (const dir of TOP_LIBRARY_DIRS) {
    try {
      const stat = fs.lstatSync(dir);
      if (stat.isSymbolicLink()) symlinks.push({ target: fs.readlinkSync(dir), dest: dir });
      else if (stat.isDirectory()) binds.push({ source: dir, dest: dir });
    } catch {
      continue;
    }
  }
  for (const p of [...LIBRARY_DIRS, ...SYSTEM_FILES])
    if (exists(p)) binds.push({ source: fs.realpathSync(p), dest: p });
  const covered = (dest: string): boolean => binds.some((b) => dest === b.dest || dest.startsWith(`${b.dest}/`));
  for (const bind of extra) if (!covered(bind.dest)) binds.push(bind);
  return { binds, symlinks };
}

export function confinedArgv(options: ConfinementOptions): string[] {
  const { host } = options;
  if (host.bwrap === undefined) throw new Error('confinedArgv: no bubblewrap on this host');
  if (host.prlimit === undefined) throw new Error('confinedArgv: no prlimit on this host');
  const { binds, symlinks } = systemBinds(options.binds);
  const argv: string[] = [host.bwrap];
  // a root host keeps no user namespace (its uid maps would keep root's files writable): it drops to a free uid below
  argv.push(...(host.isRoot ? [] : ['--unshare-user', '--disable-userns']));
  argv.push('--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try');
  argv.push('--die-with-parent', '--new-session');
  argv.push('--cap-drop', 'ALL');
  // setpriv needs these for the uid switch, then drops them with everything else before the interpreter starts
  if (host.isRoot) argv.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP');
  // the program's /tmp first: an interpreter that lives under /tmp (a cached Node, a test harness's) is bound into it
  // below instead of being hidden by it
  argv.push('--perms', '1777', '--size', String(options.tmpBytes), '--tmpfs', SANDBOX_TMP, '--chdir', SANDBOX_TMP);
  const dirs = new Set<string>();
  for (const dest of [...binds.map((b) => b.dest), ...symlinks.map((s) => s.dest), SANDBOX_DIR + '/x', '/dev/x'])
    for (const dir of ancestors(dest)) if (dir !== SANDBOX_TMP) dirs.add(dir);
  for (const dir of [...dirs].sort((a, b) => a.split('/').length - b.split('/').length))
    argv.push('--perms', '0755', '--dir', dir);
  for (const link of symlinks) argv.push('--symlink', link.target, link.dest);
  for (const bind of binds) argv.push('--ro-bind', bind.source, bind.dest);
  const setpriv = host.isRoot ? `${SANDBOX_DIR}/setpriv` : undefined;
  if (setpriv !== undefined && host.setpriv !== undefined) argv.push('--ro-bind', host.setpriv, setpriv);
  argv.push('--ro-bind', host.prlimit, `${SANDBOX_DIR}/prlimit`);
  argv.push('--proc', '/proc');
  // what the host's kernel says of itself beyond what the interpreters need: unreadable
  for (const file of HIDDEN_PROC_FILES) argv.push('--ro-bind-try', '/dev/null', file);
  // a /dev of plain character devices in the read-only root, not bubblewrap's --dev: that one is a tmpfs with no
  // size (/dev/shm took writes past tmpMb), and its ptmx opens terminals from the machine-wide pty pool
  // (kernel.pty.max, shared by every devpts instance: one run took 3 071 of 3 072)
  for (const device of DEVICES) argv.push('--dev-bind', `/dev/${device}`, `/dev/${device}`);
  for (const [name, target] of DEVICE_LINKS) argv.push('--symlink', target, `/dev/${name}`);
  argv.push('--remount-ro', '/');
  if (options.seccompFd !== undefined) argv.push('--seccomp', String(options.seccompFd));
  argv.push('--');
  if (setpriv !== undefined) {
    const id = newSandboxUid();
    argv.push(
      setpriv,
      `--reuid=${id}`,
      `--regid=${id}`,
      '--clear-groups',
      '--inh-caps=-all',
      '--bounding-set=-all',
      '--no-new-privs',
      '--',
    );
  }
  // set inside, after the uid switch and inside any user namespace: there RLIMIT_NPROC counts this run's tasks only
  // (set outside, an unprivileged host's limit would also cap the user's own processes). RLIMIT_CORE 0: no core
  // file anywhere; RLIMIT_FSIZE: no single file beyond the tmpfs; RLIMIT_NOFILE bounds the kernel buffers a run can
  // hold through descriptors (pipes, sockets), which no memory limit counts.
  argv.push(
    `${SANDBOX_DIR}/prlimit`,
    '--core=0',
    `--fsize=${options.tmpBytes}`,
    `--nproc=${TASK_LIMIT}`,
    `--nofile=${FILE_LIMIT}`,
    '--',
  );
  argv.push(...options.command);
  return argv;
}
