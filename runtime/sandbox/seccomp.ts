import { AUDIT_ARCH, SYSCALLS, type SandboxArch } from './syscalls.js';

// The one seccomp policy of both languages, compiled to classic BPF (struct sock_filter[]) by our own code so no
// libseccomp is needed: bubblewrap loads it (`--seccomp FD`) before it execs the interpreter. docs/sandbox.md
// lists it in prose; test/runtime/sandbox/seccomp.test.ts proves each rule against a real process.

// Refused with EPERM: new processes, debugging other processes, undoing the confinement, kernel attack surface
// without a use in a model program, raising priority, changing the clock or host names, and memory no limit of a
// run counts (memfd and SysV shared memory pages, SysV message queues: written, they outlive every mapping and
// fill the host's RAM past memoryMb and tmpMb).
export const DENIED_SYSCALLS = [
  'fork',
  'vfork',
  'ptrace',
  'process_vm_readv',
  'process_vm_writev',
  'process_madvise',
  'kcmp',
  'pidfd_getfd',
  'mount',
  'umount2',
  'pivot_root',
  'chroot',
  'unshare',
  'setns',
  'open_tree',
  'move_mount',
  'fsopen',
  'fsconfig',
  'fsmount',
  'fspick',
  'mount_setattr',
  'bpf',
  'perf_event_open',
  'userfaultfd',
  'keyctl',
  'add_key',
  'request_key',
  'io_uring_setup',
  'io_uring_enter',
  'io_uring_register',
  'init_module',
  'finit_module',
  'delete_module',
  'kexec_load',
  'kexec_file_load',
  'reboot',
  'swapon',
  'swapoff',
  'setpriority',
  'sched_setparam',
  'sched_setscheduler',
  'sched_setattr',
  'ioprio_set',
  'acct',
  'quotactl',
  'quotactl_fd',
  'lookup_dcookie',
  'vhangup',
  'syslog',
  'iopl',
  'ioperm',
  'modify_ldt',
  'uselib',
  'settimeofday',
  'clock_settime',
  'clock_adjtime',
  'open_by_handle_at',
  'name_to_handle_at',
  'fanotify_init',
  'sethostname',
  'setdomainname',
  'memfd_create',
  'memfd_secret',
  'shmget',
  'msgget',
  'semget',
  // machine-wide pools one run could drain for every other (and the host): aio contexts (aio-max-nr, 65 536 for
  // the whole machine), inotify instances (also a channel between runs through shared read-only files), POSIX
  // message queues
  'io_setup',
  'inotify_init',
  'inotify_init1',
  'mq_open',
  // the host's disks and page cache: sync flushes every filesystem of the machine; mincore and cachestat tell which
  // pages of the host's files (the shared libraries bound read-only) are cached, a probe of what else runs
  'sync',
  'syncfs',
  'mincore',
  'cachestat',
] as const;

// Refused with EOPNOTSUPP, as a filesystem without extended attributes answers (copy helpers tolerate that): user
// xattrs on the tmpfs are kernel memory its size cap does not count (600 MB were stored with zero blocks used).
export const UNSUPPORTED_SYSCALLS = ['setxattr', 'lsetxattr', 'fsetxattr', 'setxattrat'] as const;

// Refused with EPERM by the filter the Python runner adds before model code (bubblewrap itself must still exec).
export const EXEC_SYSCALLS = ['execve', 'execveat'] as const;

// Socket families a program may create: AF_UNIX only (Python's event loop wakes itself through a socketpair).
// AF_VSOCK, AF_PACKET, AF_NETLINK… are not covered by the network namespace; AF_INET/INET6 reach nothing but the
// run's own loopback there, and TCP autotuning grows their buffers to megabytes a connection that no limit of the
// run counts (330 loopback connections held 1.2 GB). All fail with EAFNOSUPPORT.
export const ALLOWED_SOCKET_FAMILIES = { AF_UNIX: 1 } as const;
// SOL_SOCKET options that grow a socket's kernel buffers past the default (SO_SNDBUF, SO_RCVBUF and their FORCE
// forms): with them 505 socketpairs queued 3.9 GB outside every memory limit; without, about 200 KB a socket.
const SOL_SOCKET = 1;
const DENIED_SOCKET_OPTIONS = [7, 8, 32, 33];
// personality() values libc and interpreters use (query, plain Linux, 32-bit and uname26 variants)
const ALLOWED_PERSONALITIES = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff];
// terminal ioctls that push input into, or drive, another program's terminal
const DENIED_IOCTLS = { TIOCSTI: 0x5412, TIOCLINUX: 0x541c };
const CLONE_THREAD = 0x00010000;
// a thread must share its creator's descriptor table: one without gets a table of its own, so RLIMIT_NOFILE would
// bound each thread, not the run (4 006 sockets in one run, about 50 GB of buffers at 255 threads)
const CLONE_FILES = 0x00000400;
// CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET, and CLONE_NEWTIME
const CLONE_NAMESPACES =
  0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x00000080;
const S_IFMT = 0xf000;
const S_IFIFO = 0x1000;

const EPERM = 1;
const ENOSYS = 38;
const EOPNOTSUPP = 95;
const EAFNOSUPPORT = 97;
const X32_SYSCALL_BIT = 0x40000000;

// classic BPF opcodes used here
const LD_W_ABS = 0x20;
const ALU_AND_K = 0x54;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;

// seccomp_data offsets: nr, arch, then args[i] at 16 + 8i (the low 32 bits first on these little-endian arches)
const NR = 0;
const ARCH = 4;
const arg = (i: number): number => 16 + 8 * i;

type Target = string | 'next';
type Instruction =
  | { op: 'ld'; offset: number }
  | { op: 'and'; k: number }
  | { op: 'jump'; code: number; k: number; yes: Target; no: Target }
  | { op: 'ret'; k: number }
  | { op: 'label'; name: string };

// A tiny assembler: forward jumps to named labels, resolved to the 8-bit offsets BPF allows.
function assemble(program: Instruction[]): Buffer {
  const labels = new Map<string, number>();
  const code: Exclude<Instruction, { op: 'label' }>[] = [];
  for (const ins of program) {
    if (ins.op === 'label') labels.set(ins.name, code.length);
    else code.push(ins);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((ins, index) => {
    const offset = (target: Target): number => {
      if (target === 'next') return 0;
      const at = labels.get(target);
      if (at === undefined || at <= index) throw new Error(`seccomp: unknown or backward label ${target}`);
      const distance = at - index - 1;
      if (distance > 255) throw new Error(`seccomp: jump to ${target} too far (${distance})`);
      return distance;
    };
    let opcode = 0;
    let jt = 0;
    let jf = 0;
    let k = 0;
    switch (ins.op) {
      case 'ld':
        [opcode, k] = [LD_W_ABS, ins.offset];
        break;
      case 'and':
        [opcode, k] = [ALU_AND_K, ins.k];
        break;
      case 'jump':
        [opcode, k, jt, jf] = [ins.code, ins.k, offset(ins.yes), offset(ins.no)];
        break;
      case 'ret':
        [opcode, k] = [RET_K, ins.k];
        break;
    }
    out.writeUInt16LE(opcode, index * 8);
    out.writeUInt8(jt, index * 8 + 2);
    out.writeUInt8(jf, index * 8 + 3);
    out.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return out;
}

const jeq = (k: number, yes: Target, no: Target = 'next'): Instruction => ({ op: 'jump', code: JEQ_K, k, yes, no });

// The prologue every filter shares: a foreign architecture (i386 via int 0x80) or the x32 ABI is refused whole,
// since its syscall numbers would alias the ones checked below.
function prologue(arch: SandboxArch): Instruction[] {
  const out: Instruction[] = [
    { op: 'ld', offset: ARCH },
    jeq(AUDIT_ARCH[arch], 'next', 'deny'),
    { op: 'ld', offset: NR },
  ];
  if (arch === 'x86_64') out.push({ op: 'jump', code: JGE_K, k: X32_SYSCALL_BIT, yes: 'deny', no: 'next' });
  return out;
}

function numbers(arch: SandboxArch, names: readonly string[]): number[] {
  const table = SYSCALLS[arch];
  // a name missing from an architecture's table has no syscall to refuse there
  return names.map((name) => table[name]).filter((n): n is number => n !== undefined);
}

const tail: Instruction[] = [
  { op: 'label', name: 'allow' },
  { op: 'ret', k: RET_ALLOW },
  { op: 'label', name: 'deny' },
  { op: 'ret', k: RET_ERRNO | EPERM },
];

// assembled once per architecture (~0.6 ms each time, on the event loop, before every run's launch)
const assembled = new Map<SandboxArch, Buffer>();

// The filter bubblewrap loads for every sandboxed run, both languages (a copy: the caller may write into it).
export function sandboxFilter(arch: SandboxArch): Buffer {
  let program = assembled.get(arch);
  if (program === undefined) {
    program = assembleSandboxFilter(arch);
    assembled.set(arch, program);
  }
  return Buffer.from(program);
}

function assembleSandboxFilter(arch: SandboxArch): Buffer {
  const table = SYSCALLS[arch];
  const nr = (name: string): number => {
    const n = table[name];
    if (n === undefined) throw new Error(`seccomp: no ${name} on ${arch}`);
    return n;
  };
  const program: Instruction[] = [
    ...prologue(arch),
    ...numbers(arch, DENIED_SYSCALLS).map((n) => jeq(n, 'deny')),
    ...numbers(arch, UNSUPPORTED_SYSCALLS).map((n) => jeq(n, 'unsupported')),
  ];
  program.push(
    jeq(nr('clone'), 'clone'),
    jeq(nr('clone3'), 'enosys'),
    jeq(nr('socket'), 'socket'),
    jeq(nr('socketpair'), 'socket'),
    jeq(nr('setsockopt'), 'setsockopt'),
    jeq(nr('ioctl'), 'ioctl'),
    jeq(nr('personality'), 'personality'),
    jeq(nr('mknodat'), 'mknodat'),
  );
  if (table.mknod !== undefined) program.push(jeq(table.mknod, 'mknod'));
  program.push(
    { op: 'ret', k: RET_ALLOW },
    // threads only, sharing the descriptor table, and never with a new namespace
    { op: 'label', name: 'clone' },
    { op: 'ld', offset: arg(0) },
    { op: 'jump', code: JSET_K, k: CLONE_THREAD, yes: 'next', no: 'deny' },
    { op: 'jump', code: JSET_K, k: CLONE_FILES, yes: 'next', no: 'deny' },
    { op: 'jump', code: JSET_K, k: CLONE_NAMESPACES, yes: 'deny', no: 'allow' },
    { op: 'label', name: 'socket' },
    { op: 'ld', offset: arg(0) },
    ...Object.values(ALLOWED_SOCKET_FAMILIES).map((family) => jeq(family, 'allow')),
    { op: 'ret', k: RET_ERRNO | EAFNOSUPPORT },
    { op: 'label', name: 'setsockopt' },
    { op: 'ld', offset: arg(1) },
    jeq(SOL_SOCKET, 'next', 'allow'),
    { op: 'ld', offset: arg(2) },
    ...DENIED_SOCKET_OPTIONS.map((option) => jeq(option, 'deny')),
    { op: 'ret', k: RET_ALLOW },
    { op: 'label', name: 'ioctl' },
    { op: 'ld', offset: arg(1) },
    ...Object.values(DENIED_IOCTLS).map((cmd) => jeq(cmd, 'deny')),
    { op: 'ret', k: RET_ALLOW },
    { op: 'label', name: 'personality' },
    { op: 'ld', offset: arg(0) },
    ...ALLOWED_PERSONALITIES.map((value) => jeq(value, 'allow')),
    { op: 'ret', k: RET_ERRNO | EPERM },
    // named pipes in the program's own temp dir are fine; device nodes are not
    { op: 'label', name: 'mknod' },
    { op: 'ld', offset: arg(1) },
    { op: 'and', k: S_IFMT },
    jeq(S_IFIFO, 'allow', 'deny'),
    { op: 'label', name: 'mknodat' },
    { op: 'ld', offset: arg(2) },
    { op: 'and', k: S_IFMT },
    jeq(S_IFIFO, 'allow', 'deny'),
    { op: 'label', name: 'unsupported' },
    { op: 'ret', k: RET_ERRNO | EOPNOTSUPP },
    { op: 'label', name: 'enosys' },
    // clone3 answers ENOSYS so libc falls back to clone, whose flags the filter can read
    { op: 'ret', k: RET_ERRNO | ENOSYS },
    ...tail,
  );
  return assemble(program);
}

// Added by the Python runner before any model code: exec would replace the runner inside the same sandbox.
export function execFilter(arch: SandboxArch): Buffer {
  return assemble([
    ...prologue(arch),
    ...numbers(arch, EXEC_SYSCALLS).map((n) => jeq(n, 'deny')),
    { op: 'ret', k: RET_ALLOW },
    ...tail,
  ]);
}
