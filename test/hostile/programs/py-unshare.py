# about: unshare(2) through ctypes for every namespace kind: a new namespace is where privileges come back
# expect: success|exception
# must-not: kernel-granted
import ctypes, platform
NR = {'x86_64': 272, 'aarch64': 97}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = []
# the user namespace last: entering it changes the credentials the others would be checked against
for name, flag in (('mnt', 0x20000), ('uts', 0x04000000), ('ipc', 0x08000000), ('net', 0x40000000), ('pid', 0x20000000), ('cgroup', 0x02000000), ('user', 0x10000000)):
    if libc.syscall(ctypes.c_long(NR), ctypes.c_long(flag)) == 0:
        out.append(name + ': unshared ' + '{{TOKEN}}'.upper())
    else:
        out.append(f'{name}: errno {ctypes.get_errno()}')
return out
