"""OS-level confinement applied by the runner itself, before any model code runs (Linux).

Python has no permission model, so:
- filesystem: inside the mount namespace the host created (`unshare --mount`), a fresh read-only root is
  assembled from a tmpfs: the system directories and the interpreter's own prefix read-only, the run's
  private temp dir writable, a fresh /proc for the run's PID namespace, a minimal /dev. Everything else
  (home directories, /root, /tmp, the host's /proc/<pid>/environ) simply does not exist. Then pivot_root.
- child processes: every capability is dropped, then a seccomp filter refuses execve/execveat, fork/vfork,
  clone without CLONE_THREAD (clone3 answers ENOSYS so libc falls back to clone), and the syscalls that
  could undo the confinement (mount, pivot_root, unshare, setns, ptrace, mknod, ...).
Each layer reports whether it was applied; the host reports a layer only when a probe proved it.
"""

import ctypes
import os
import struct
import sys

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2

SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# harmless files some stdlib modules read (time zone, user database, dynamic loader cache)
ETC_FILES = (
    "/etc/ld.so.cache", "/etc/localtime", "/etc/timezone", "/etc/passwd", "/etc/group",
    "/etc/nsswitch.conf", "/etc/hosts", "/etc/mime.types",
)
PROC_READONLY = ("sys", "sysrq-trigger", "bus", "fs", "irq")
DEVICES = ("null", "zero", "full", "random", "urandom")

ARCH = os.uname().machine
# (AUDIT_ARCH, pivot_root, clone, clone3, denied syscall numbers)
_SYSCALLS = {
    "x86_64": (
        0xC000003E, 155, 56, 435,
        # execve execveat fork vfork mount umount2 pivot_root chroot unshare setns ptrace mknod mknodat
        (59, 322, 57, 58, 165, 166, 155, 161, 272, 308, 101, 133, 259,
         # open_by_handle_at name_to_handle_at kexec_load kexec_file_load init/finit/delete_module bpf
         304, 303, 246, 320, 175, 313, 176, 321,
         # keyctl add_key request_key userfaultfd perf_event_open acct swapon swapoff reboot
         250, 248, 249, 323, 298, 163, 167, 168, 169,
         # settimeofday clock_settime iopl ioperm open_tree move_mount fsopen fsconfig fsmount fspick mount_setattr
         164, 227, 172, 173, 428, 429, 430, 431, 432, 433, 442),
    ),
    "aarch64": (
        0xC00000B7, 41, 220, 435,
        (221, 281, 40, 39, 41, 51, 97, 268, 117, 33,
         265, 264, 104, 294, 105, 273, 106, 280,
         219, 217, 218, 282, 241, 89, 224, 225, 142,
         170, 112, 428, 429, 430, 431, 432, 433, 442),
    ),
}

_libc = None


def _lib():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
        _libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
        _libc.syscall.restype = ctypes.c_long
        _libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    return _libc


def _check(result, what):
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, "%s: %s" % (what, os.strerror(errno)))


def _enc(text):
    return None if text is None else os.fsencode(text)


def _mount(source, target, fstype, flags, data=None):
    _check(_lib().mount(_enc(source), _enc(target), _enc(fstype), flags, _enc(data)), "mount %s" % target)


def _bind(root, path, writable=False, noexec=False):
    if not os.path.lexists(path):
        return
    target = root + path
    if os.path.islink(path):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.symlink(os.readlink(path), target)
        return
    if os.path.isdir(path):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            open(target, "a").close()
    _mount(path, target, None, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV
    if not writable:
        flags |= MS_RDONLY
    if noexec:
        flags |= MS_NOEXEC
    _mount(None, target, None, flags)


def _interpreter_dirs():
    dirs = []
    for candidate in (sys.base_prefix, sys.base_exec_prefix, sys.prefix, sys.exec_prefix,
                      os.path.dirname(sys.executable or "")):
        if not candidate:
            continue
        for path in (candidate, os.path.realpath(candidate)):
            if path not in dirs and not any(path == d or path.startswith(d + "/") for d in SYSTEM_DIRS):
                dirs.append(path)
    return dirs


def confine_filesystem(root, tmpdir, readonly_dirs):
    """Assembles a read-only root on the empty directory `root` and pivots into it."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=1m")
    for path in SYSTEM_DIRS:
        _bind(root, path)
    for path in _interpreter_dirs():
        _bind(root, path)
    for path in ETC_FILES:
        _bind(root, path)
    for path in readonly_dirs:
        _bind(root, path)
    _bind(root, tmpdir, writable=True, noexec=True)
    os.chmod(root + "/tmp", 0o755) if os.path.isdir(root + "/tmp") else os.makedirs(root + "/tmp", 0o755)
    dev = root + "/dev"
    os.makedirs(dev, exist_ok=True)
    _mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k")
    for name in DEVICES:
        if os.path.exists("/dev/" + name):
            open(dev + "/" + name, "a").close()
            _mount("/dev/" + name, dev + "/" + name, None, MS_BIND)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, dev + "/" + name)
    _mount(None, dev, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NOEXEC)
    os.makedirs(root + "/proc", exist_ok=True)
    # a fresh /proc of the run's own PID namespace: the host's processes (and their environ) are not there
    _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    # uid 0 writes sysctls by file mode alone, capabilities or not: those parts of /proc are read-only
    for name in PROC_READONLY:
        path = root + "/proc/" + name
        if os.path.lexists(path):
            _mount(path, path, None, MS_BIND | MS_REC)
            _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC)
    _mount(None, root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    table = _SYSCALLS.get(ARCH)
    if table is None:
        raise OSError(0, "pivot_root: unsupported architecture %s" % ARCH)
    os.chdir(root)
    _check(_lib().syscall(table[1], b".", b"."), "pivot_root")
    _check(_lib().umount2(b".", MNT_DETACH), "umount old root")
    os.chdir("/")


def _drop_capabilities():
    lib = _lib()
    PR_CAPBSET_DROP = 24
    PR_CAP_AMBIENT = 47
    PR_CAP_AMBIENT_CLEAR_ALL = 4
    for cap in range(64):
        if lib.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == 22:
            break  # EINVAL: past the last capability this kernel knows
    lib.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = struct.pack("Ii", 0x20080522, 0)
    data = bytes(24)
    header_buf = ctypes.create_string_buffer(header, len(header))
    data_buf = ctypes.create_string_buffer(data, len(data))
    _check(lib.capset(header_buf, data_buf), "capset")


def _filter_program(table):
    audit_arch, _pivot, clone, clone3, denied = table
    LD_ABS_W = 0x20
    JEQ = 0x15
    JGE = 0x35
    JSET = 0x45
    RET = 0x06
    ALLOW = 0x7FFF0000
    ERRNO = 0x00050000
    EPERM = 1
    ENOSYS = 38
    CLONE_THREAD = 0x00010000
    prog = [
        (LD_ABS_W, 0, 0, 4),
        (JEQ, 1, 0, audit_arch),
        (RET, 0, 0, ERRNO | EPERM),
        (LD_ABS_W, 0, 0, 0),
    ]
    if ARCH == "x86_64":
        # x32 ABI numbers alias the denied calls
        prog += [(JGE, 0, 1, 0x40000000), (RET, 0, 0, ERRNO | EPERM)]
    for number in denied:
        prog += [(JEQ, 0, 1, number), (RET, 0, 0, ERRNO | EPERM)]
    prog += [
        (JEQ, 0, 1, clone3),
        (RET, 0, 0, ERRNO | ENOSYS),
        (JEQ, 0, 3, clone),
        (LD_ABS_W, 0, 0, 16),
        (JSET, 1, 0, CLONE_THREAD),
        (RET, 0, 0, ERRNO | EPERM),
        (RET, 0, 0, ALLOW),
    ]
    return b"".join(struct.pack("HBBI", *ins) for ins in prog), len(prog)


def confine_processes():
    """Drops capabilities and installs the seccomp filter (this process is still single-threaded)."""
    table = _SYSCALLS.get(ARCH)
    if table is None:
        raise OSError(0, "seccomp: unsupported architecture %s" % ARCH)
    lib = _lib()
    _drop_capabilities()
    PR_SET_NO_NEW_PRIVS = 38
    PR_SET_SECCOMP = 22
    SECCOMP_MODE_FILTER = 2
    _check(lib.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    code, count = _filter_program(table)
    filters = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = SockFprog(count, ctypes.cast(filters, ctypes.c_void_p))
    _check(lib.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(fprog), 0, 0), "seccomp")
