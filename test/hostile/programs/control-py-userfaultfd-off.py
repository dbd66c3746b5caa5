# about: CONTROL: with the sandbox off, userfaultfd through ctypes returns a descriptor
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import ctypes, os, platform
NR = {'x86_64': 323, 'aarch64': 282}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
fd = libc.syscall(ctypes.c_long(NR), ctypes.c_long(os.O_CLOEXEC | os.O_NONBLOCK))
if fd >= 0:
    os.close(fd)
    return 'userfaultfd: fd ' + '{{TOKEN}}'.upper()
return f'userfaultfd: errno {ctypes.get_errno()}'
