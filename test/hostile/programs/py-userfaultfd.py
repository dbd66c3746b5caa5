# about: userfaultfd through ctypes and /dev/userfaultfd: the classic primitive for stretching kernel race windows
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform
NR = {'x86_64': 323, 'aarch64': 282}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = []
fd = libc.syscall(ctypes.c_long(NR), ctypes.c_long(os.O_CLOEXEC | os.O_NONBLOCK))
if fd >= 0:
    os.close(fd)
    out.append('userfaultfd: fd ' + '{{TOKEN}}'.upper())
else:
    out.append(f'userfaultfd: errno {ctypes.get_errno()}')
try:
    os.close(os.open('/dev/userfaultfd', os.O_RDWR))
    out.append('/dev/userfaultfd: opened')
except OSError as e:
    out.append(f'/dev/userfaultfd: errno {e.errno}')
return out
