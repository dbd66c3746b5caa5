# about: inotify instances and watches: a per-user pool on an unprivileged host, and a channel between concurrent
#   runs through the read-only files they share (a watch on a library file sees another run open it)
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform
INOTIFY_INIT1 = {'x86_64': 294, 'aarch64': 26}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
fds = []
for _ in range(16):
    fd = libc.syscall(INOTIFY_INIT1, 0)
    if fd < 0:
        break
    fds.append(fd)
errno = ctypes.get_errno()
for fd in fds:
    os.close(fd)
return f'{len(fds)} inotify instances ' + ('{{TOKEN}}'.upper() if fds else f'(errno {errno})')
