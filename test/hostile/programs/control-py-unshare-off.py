# about: CONTROL: with the sandbox off, unshare(CLONE_NEWNS | CLONE_NEWUTS) through ctypes succeeds
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import ctypes, platform
NR = {'x86_64': 272, 'aarch64': 97}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
if libc.syscall(ctypes.c_long(NR), ctypes.c_long(0x20000 | 0x04000000)) == 0:
    return 'unshared ' + '{{TOKEN}}'.upper()
return f'errno {ctypes.get_errno()}'
