import { describe, expect, test } from 'vitest';
import { execFilter, sandboxFilter } from '../../../runtime/sandbox/seccomp.js';
import { run } from '../../helpers/runtime.js';

// Each rule of the one filter, tried for real from inside the sandbox with raw syscalls (Python's ctypes), and
// once with the sandbox off, which proves the same attempts succeed when nothing refuses them.
const attempts = `
import ctypes, os, socket, threading
libc = ctypes.CDLL(None, use_errno=True)
def raw(nr, *args):
    r = libc.syscall(nr, *args)
    if r < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return r
out = {}
def attempt(name, action):
    try:
        action()
        out[name] = "allowed"
    except OSError as e:
        out[name] = "errno %d" % e.errno
attempt("vsock", lambda: socket.socket(40, socket.SOCK_STREAM).close())
attempt("packet", lambda: socket.socket(17, socket.SOCK_RAW).close())
attempt("netlink", lambda: socket.socket(16, socket.SOCK_RAW, 0).close())
attempt("inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close())
attempt("unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
attempt("socketpair", lambda: [s.close() for s in socket.socketpair()])
def grow_buffer(option):
    a, b = socket.socketpair()
    try:
        a.setsockopt(socket.SOL_SOCKET, option, 1 << 22)
    finally:
        a.close()
        b.close()
attempt("sndbuf", lambda: grow_buffer(socket.SO_SNDBUF))
attempt("rcvbuf", lambda: grow_buffer(socket.SO_RCVBUF))
def keepalive():
    a, b = socket.socketpair()
    try:
        a.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
    finally:
        a.close()
        b.close()
attempt("other-socket-option", keepalive)
attempt("memfd", lambda: os.close(os.memfd_create("x")))
# what a get creates (with the sandbox off, in the host's IPC namespace) is removed at once: IPC_RMID is 0
def sysv(get, ctl, *args):
    ident = raw(get, 0, *args)
    libc.syscall(ctl, ident, 0, 0)
attempt("shmget", lambda: sysv(29, 31, 4096, 0o1600))
attempt("msgget", lambda: sysv(68, 71, 0o1600))
attempt("semget", lambda: sysv(64, 66, 1, 0o1600))
attempt("io_uring", lambda: raw(425, 1, ctypes.create_string_buffer(120)))
attempt("userfaultfd", lambda: os.close(raw(323, 0)))
attempt("clone3", lambda: raw(435, 0, 0))
attempt("unshare-ipc", lambda: raw(272, 0x08000000))
attempt("keyctl", lambda: raw(250, 0, -3, 0))
attempt("perf_event_open", lambda: raw(298, ctypes.create_string_buffer(128), 0, -1, -1, 0))
attempt("bpf", lambda: raw(321, 0, ctypes.create_string_buffer(128), 128))
attempt("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, 0, 1))
attempt("mkfifo", lambda: os.mkfifo(os.path.join(__import__("tempfile").gettempdir(), "fifo")))
# machine-wide pools: an aio context (aio-max-nr), an inotify instance, a POSIX message queue, a pty; each one made
# with the sandbox off is released at once
def aio():
    ctx = ctypes.c_ulong(0)
    raw(206, 1, ctypes.byref(ctx))
    libc.syscall(207, ctx)
attempt("io_setup", aio)
attempt("inotify", lambda: os.close(raw(294, 0)))
def mqueue():
    name = b"ptc-seccomp-%d" % os.getpid()
    os.close(raw(240, name, os.O_CREAT | os.O_RDWR, 0o600, None))
    libc.syscall(241, name)
attempt("mq_open", mqueue)
attempt("pty", lambda: os.close(os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)))
# the host's page cache and disks: which pages of a shared library are cached (mincore), a flush of every disk (syncfs)
def cached_pages():
    mapped = libc.mmap
    mapped.restype = ctypes.c_void_p
    mapped.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
    vec = ctypes.create_string_buffer(1)
    fd = os.open(os.__file__, os.O_RDONLY)
    try:
        page = mapped(None, 4096, 1, 1, fd, 0)
        try:
            raw(27, ctypes.c_void_p(page), ctypes.c_size_t(4096), vec)
        finally:
            libc.munmap(ctypes.c_void_p(page), ctypes.c_size_t(4096))
    finally:
        os.close(fd)
attempt("mincore", cached_pages)
attempt("syncfs", lambda: raw(306, 1))
xattr_file = os.path.join(__import__("tempfile").gettempdir(), "xattr")
open(xattr_file, "w").close()
attempt("xattr", lambda: os.setxattr(xattr_file, "user.ptc", b"x" * 64))
t = threading.Thread(target=lambda: None)
attempt("thread", lambda: (t.start(), t.join()))
return out`;

describe('seccomp filter', () => {
  test('compiles for both architectures, within classic BPF limits', () => {
    for (const arch of ['x86_64', 'aarch64'] as const) {
      for (const filter of [sandboxFilter(arch), execFilter(arch)]) {
        expect(filter.length % 8).toBe(0);
        expect(filter.length / 8).toBeLessThan(4096);
      }
    }
  });

  test('refuses each listed syscall and socket family inside the sandbox; threads, FIFOs and UNIX sockets work', async () => {
    const r = await run('python', attempts);
    expect(r.error).toBeUndefined();
    expect(r.sandbox.enforcement).toBe('full');
    expect(r.value).toEqual({
      vsock: 'errno 97',
      packet: 'errno 97',
      netlink: 'errno 97',
      inet: 'errno 97',
      unix: 'allowed',
      socketpair: 'allowed',
      sndbuf: 'errno 1',
      rcvbuf: 'errno 1',
      'other-socket-option': 'allowed',
      memfd: 'errno 1',
      shmget: 'errno 1',
      msgget: 'errno 1',
      semget: 'errno 1',
      io_uring: 'errno 1',
      userfaultfd: 'errno 1',
      clone3: 'errno 38',
      'unshare-ipc': 'errno 1',
      keyctl: 'errno 1',
      perf_event_open: 'errno 1',
      bpf: 'errno 1',
      setpriority: 'errno 1',
      mkfifo: 'allowed',
      io_setup: 'errno 1',
      inotify: 'errno 1',
      mq_open: 'errno 1',
      // no ptmx in the sandbox's /dev at all
      pty: 'errno 2',
      // EOPNOTSUPP: what a filesystem without extended attributes answers
      xattr: 'errno 95',
      mincore: 'errno 1',
      syncfs: 'errno 1',
      thread: 'allowed',
    });
  });

  test("with the sandbox off the same attempts are not refused by a filter (the denials above are the filter's)", async () => {
    const r = await run('python', attempts, { sandbox: 'off' });
    const value = r.value as Record<string, string>;
    // no EPERM/EAFNOSUPPORT from a filter: these either work or fail for the kernel's own reasons
    expect(value.vsock).not.toBe('errno 97');
    for (const name of ['inet', 'sndbuf', 'rcvbuf', 'memfd', 'shmget', 'msgget', 'semget'])
      expect(value[name]).toBe('allowed');
    expect(value.io_uring).toBe('allowed');
    for (const name of ['io_setup', 'inotify', 'mq_open', 'pty', 'xattr', 'mincore', 'syncfs'])
      expect(value[name], name).toBe('allowed');
    expect(value.setpriority).toBe('allowed');
    expect(value.thread).toBe('allowed');
  });
});
