import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CodeRunSpec } from '../api.js';
import type { JsonValue } from '../protocol/json-value.js';
import type { RunResult } from '../protocol/run-result.js';
import type { RunCgroup } from './cgroup.js';
import { isSandboxUid, TASK_LIMIT } from './bwrap.js';
import type { SandboxHost } from './sandbox-host.js';
import { PYTHON_ATTEMPT_HELPER } from './probe-attempt.js';

// A layer is reported only after a program inside it tried to get out and was refused: this is that program,
// per language, and the host's reading of what it saw. Run once per runtime and interpreter.

const NAMESPACES = ['ipc', 'uts', 'net', 'pid', 'mnt', 'cgroup', 'user'] as const;

// What the probe program must return: namespace ids, its own status and mounts, and each escape it attempted.
export interface ProbeSight {
  ns: Record<string, string>;
  status: string;
  limits: string;
  mountinfo: string;
  refused: Record<string, boolean>;
}

export function probeProgram(
  language: 'typescript' | 'python',
  secret: string,
  decoy: number = PROBE_DECOY_FD,
): string {
  const s = JSON.stringify(secret);
  if (language === 'python') {
    return `
import ctypes, os, resource, socket
libc = ctypes.CDLL(None, use_errno=True)
${PYTHON_ATTEMPT_HELPER}
def raw(nr, *args):
    if libc.syscall(nr, *args) < 0:
        raise OSError(ctypes.get_errno(), "refused")
def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
attempt("read-outside", lambda: open(${s}).read())
attempt("write-root", lambda: open("/ptc-probe", "w"))
attempt("chmod-device", lambda: os.chmod("/dev/null", 0o666))
attempt("fork", fork)
attempt("exec", lambda: os.execv("/proc/self/exe", ["python3", "-c", "pass"]))
attempt("vsock", lambda: socket.socket(40, socket.SOCK_STREAM))
attempt("inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
attempt("memfd", lambda: os.memfd_create("probe"))
attempt("raise-priority", lambda: os.setpriority(os.PRIO_PROCESS, 0, -1))
attempt("io_uring", lambda: raw(425, 1, ctypes.create_string_buffer(120)))
attempt("unshare", lambda: raw(272, 0x40000000))
attempt("raise-task-limit", lambda: resource.setrlimit(resource.RLIMIT_NPROC, (resource.RLIM_INFINITY, resource.RLIM_INFINITY)))
attempt("inherited-descriptor", lambda: os.fstat(${decoy}))
attempt("aio", lambda: raw({"x86_64": 206, "aarch64": 0}[os.uname().machine], 1, ctypes.byref(ctypes.c_ulong(0))))
attempt("inotify", lambda: raw({"x86_64": 294, "aarch64": 26}[os.uname().machine], 0))
attempt("pty", lambda: os.close(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)))
open("/tmp/ptc-probe-xattr", "w").close()
attempt("xattr", lambda: os.setxattr("/tmp/ptc-probe-xattr", "user.probe", b"x"))
ns = {}
for name in ${JSON.stringify(NAMESPACES)}:
    try:
        ns[name] = os.readlink("/proc/self/ns/" + name)
    except OSError:
        ns[name] = ""
return {"ns": ns, "status": open("/proc/self/status").read(), "limits": open("/proc/self/limits").read(), "mountinfo": open("/proc/self/mountinfo").read(), "refused": refused}`;
  }
  return `
const fs = await import('node:fs');
const os = await import('node:os');
const cp = await import('node:child_process');
const refused: Record<string, boolean> = {};
const attempt = (name: string, action: () => unknown) => {
  try { action(); refused[name] = false; } catch { refused[name] = true; }
};
attempt('read-outside', () => fs.readFileSync(${s}));
attempt('write-root', () => fs.writeFileSync('/ptc-probe', 'x'));
attempt('chmod-device', () => fs.chmodSync('/dev/null', 0o666));
attempt('fork', () => { const r = cp.spawnSync(process.execPath, ['-e', '0']); if (r.error) throw r.error; });
attempt('raise-priority', () => os.setPriority(0, -1));
attempt('inherited-descriptor', () => fs.fstatSync(${decoy}));
attempt('inotify', () => fs.watch('/tmp').close());
attempt('pty', () => fs.closeSync(fs.openSync('/dev/ptmx', 'r+')));
const ns: Record<string, string> = {};
for (const name of ${JSON.stringify(NAMESPACES)}) { try { ns[name] = fs.readlinkSync('/proc/self/ns/' + name); } catch { ns[name] = ''; } }
return { ns, status: fs.readFileSync('/proc/self/status', 'utf8'), limits: fs.readFileSync('/proc/self/limits', 'utf8'), mountinfo: fs.readFileSync('/proc/self/mountinfo', 'utf8'), refused };`;
}

// The descriptor number the host leaves open in the probe on purpose (process/launch.ts: decoy), past the 1 024 a
// run may open: inherited descriptors at any number must be closed before the interpreter starts.
export const PROBE_DECOY_FD = 1500;

// The spec a probe runs under: one program, generous limits, a small tmpfs, nothing to call.
export function probeSpec(language: 'typescript' | 'python', secret: string): CodeRunSpec {
  return {
    resolved: true,
    language,
    program: probeProgram(language, secret),
    bindings: [],
    timeoutMs: 30_000,
    maxOutputBytes: 1 << 20,
    memoryMb: 512,
    tmpMb: 16,
    cwd: os.tmpdir(),
    sandbox: 'best-effort',
    engine: 'native',
    signal: undefined,
    onLog: undefined,
    maxPendingCalls: 1,
    maxCalls: undefined,
  };
}

// A file the probe must not be able to read: planted in the host's temp dir, which the sandbox does not mount.
// Its directory is what the host leaks to the probe as a descriptor: through it, the secret would be one openat away.
export function plantSecret(): { file: string; dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ptc-proof-'));
  const file = path.join(dir, 'secret');
  fs.writeFileSync(file, 'secret', { mode: 0o644 });
  return { file, dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// A descriptor the host opens for the probe to inherit; close() once the probe started, and again in any case: it
// closes only once, since a second close could hit a descriptor this process reused the number for.
export function openDecoy(dir: string): { fd: number; at: number; close(): void } {
  const fd = fs.openSync(dir, 'r');
  let open = true;
  const close = (): void => {
    if (!open) return;
    open = false;
    fs.closeSync(fd);
  };
  return { fd, at: PROBE_DECOY_FD, close };
}

// What one probe run answered (undefined when it failed) and what the host saw of its cgroup.
export interface ProbeRun {
  value: JsonValue | undefined;
  cgroup: CgroupSight | undefined;
}

// Runs the probe on a child that `start` launches holding the secret's directory open (on purpose: the probe must fail
// to read through it), for both backends alike; the child's cgroup is read from outside before it is discarded.
export async function probeOnChild<C extends { readonly cgroup: RunCgroup | undefined; discard(): Promise<void> }>(
  secretDir: string,
  start: (decoy: { fd: number; at: number }) => C,
  run: (child: C) => Promise<RunResult>,
): Promise<ProbeRun> {
  let child: C | undefined;
  const decoy = openDecoy(secretDir);
  try {
    child = start({ fd: decoy.fd, at: decoy.at });
    decoy.close();
    const result = await run(child);
    const cgroup =
      child.cgroup === undefined
        ? undefined
        : { requested: child.cgroup.limits.memoryBytes, ...child.cgroup.accounting() };
    return { value: result.error === undefined ? result.value : undefined, cgroup };
  } catch {
    return { value: undefined, cgroup: undefined };
  } finally {
    decoy.close();
    await child?.discard();
  }
}

// What the host saw of the probe's cgroup from outside (the program's own view is its cgroup namespace's root).
export interface CgroupSight {
  // the bound the run asked for, the one the kernel holds, and the most the probe's processes were charged
  requested: number;
  limit: number | undefined;
  peak: number | undefined;
}

// The probe's cgroup holds when the kernel keeps the requested bound and charged the probe's interpreter to it
// (an interpreter holds megabytes: a cgroup nothing joined stays near zero).
export function judgeCgroup(
  sight: CgroupSight | undefined,
): { ok: true; mechanism: string } | { ok: false; problem: string } {
  if (sight === undefined) return { ok: false, problem: 'the probe ran without a cgroup' };
  if (sight.limit !== sight.requested)
    return { ok: false, problem: `the cgroup's memory bound is ${String(sight.limit)}, not ${sight.requested}` };
  if (sight.peak === undefined || sight.peak < MIN_CHARGED_BYTES)
    return { ok: false, problem: 'the probe was not charged to its cgroup' };
  return { ok: true, mechanism: CGROUP_MECHANISM };
}

const MIN_CHARGED_BYTES = 4 * 1024 * 1024;
export const CGROUP_MECHANISM =
  'a cgroup per run (memory bound incl. tmpfs, inodes, dentries, socket and pipe buffers; tasks)';

function ownNamespace(name: string): string | undefined {
  try {
    return fs.readlinkSync(`/proc/self/ns/${name}`);
  } catch {
    return undefined;
  }
}

function statusField(status: string, name: string): string | undefined {
  return new RegExp(`^${name}:\\s*(.*)$`, 'm').exec(status)?.[1]?.trim();
}

// /proc/self/limits: both the soft and the hard limit of a row are at most the bound.
function withinLimit(limits: string, row: string, bound: number): boolean {
  const line = limits.split('\n').find((l) => l.startsWith(row));
  const [soft, hard] = (line?.slice(row.length).trim().split(/\s+/) ?? []).map(Number);
  return soft !== undefined && hard !== undefined && soft <= bound && hard <= bound;
}

export type Verdict = { ok: true; mechanisms: string[]; runtimeRefused: boolean } | { ok: false; problem: string };

// The host's reading of the probe: every namespace differs from the host's, no capabilities, no_new_privs, the
// seccomp filter on, a read-only root and a tmpfs /tmp, and every attempted escape refused.
export function judgeProbe(
  value: JsonValue | undefined,
  host: SandboxHost,
  runtimeAttempts: readonly string[],
): Verdict {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problem: 'the probe returned nothing readable' };
  const sight = value as unknown as ProbeSight;
  const namespaces = NAMESPACES.filter((n) => n !== 'user' || !host.isRoot);
  for (const name of namespaces) {
    const own = ownNamespace(name);
    // this kernel has no such namespace: nothing to compare
    if (own === undefined) continue;
    const theirs = sight.ns?.[name];
    if (typeof theirs !== 'string' || theirs === own)
      return { ok: false, problem: `the ${name} namespace is the host's` };
  }
  const status = typeof sight.status === 'string' ? sight.status : '';
  if (statusField(status, 'CapEff') !== '0000000000000000')
    return { ok: false, problem: 'the program kept capabilities' };
  if (statusField(status, 'NoNewPrivs') !== '1') return { ok: false, problem: 'no_new_privs is not set' };
  if (statusField(status, 'Seccomp') !== '2') return { ok: false, problem: 'no seccomp filter is in force' };
  if (host.isRoot && !isSandboxUid(Number(statusField(status, 'Uid')?.split(/\s+/)[0])))
    return { ok: false, problem: 'the program does not run as a sandbox uid' };
  const limits = typeof sight.limits === 'string' ? sight.limits : '';
  if (!withinLimit(limits, 'Max processes', TASK_LIMIT))
    return { ok: false, problem: `tasks are not limited to ${TASK_LIMIT}` };
  if (!withinLimit(limits, 'Max core file size', 0)) return { ok: false, problem: 'core dumps are not off' };
  const mounts = (typeof sight.mountinfo === 'string' ? sight.mountinfo : '')
    .split('\n')
    .map((line) => line.split(' '));
  const root = mounts.find((m) => m[4] === '/');
  if (root === undefined || !(root[5] ?? '').split(',').includes('ro'))
    return { ok: false, problem: 'the root is not read-only' };
  const tmp = mounts.find((m) => m[4] === '/tmp');
  if (tmp === undefined || !tmp.includes('tmpfs') || !tmp.some((field) => /(^|,)size=/.test(field)))
    return { ok: false, problem: '/tmp is not a size-capped tmpfs' };
  const refused = sight.refused ?? {};
  const escaped = Object.entries(refused).filter(
    ([name, denied]) => denied !== true && !runtimeAttempts.includes(name),
  );
  if (escaped.length > 0 || Object.keys(refused).length === 0)
    return { ok: false, problem: `not refused: ${escaped.map(([name]) => name).join(', ') || 'no attempt ran'}` };
  const mechanisms = [
    `bubblewrap: ${namespaces.map((n) => (n === 'mnt' ? 'mount' : n)).join(', ')} namespaces${host.isRoot ? ', a uid of its own (root dropped)' : ''}`,
    'read-only minimal root (interpreter and libraries only)',
    'size-capped tmpfs /tmp',
    'seccomp (no new processes, threads share one descriptor table, no namespace/mount/ptrace/bpf/io_uring/keyring/memfd/SysV IPC/aio/inotify/mqueue/sync/page-cache calls, no xattrs, AF_UNIX sockets only)',
    'only stdio and the wire cross: inherited descriptors closed',
    '/dev without ptys or shm',
    'no capabilities, no_new_privs, no core dumps',
    `at most ${TASK_LIMIT} tasks (threads included)`,
  ];
  return { ok: true, mechanisms, runtimeRefused: runtimeAttempts.every((name) => refused[name] === true) };
}
