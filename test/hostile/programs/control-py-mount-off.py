# about: CONTROL: with the sandbox off, the program mounts a tmpfs in a mount namespace of its own
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import ctypes, os, platform, tempfile
NR_UNSHARE = {'x86_64': 272, 'aarch64': 97}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
target = os.path.join(tempfile.gettempdir(), 'mnt')
os.makedirs(target, exist_ok=True)
# a namespace of its own, private: the mount can never show on the host
assert libc.syscall(ctypes.c_long(NR_UNSHARE), ctypes.c_long(0x20000)) == 0, ctypes.get_errno()
assert libc.mount(None, b'/', None, (1 << 14) | (1 << 18), None) == 0, ctypes.get_errno()
if libc.mount(b'tmpfs', target.encode(), b'tmpfs', 0, b'size=1m') != 0:
    return f'errno {ctypes.get_errno()}'
libc.umount2(target.encode(), 2)
return 'mounted ' + '{{TOKEN}}'.upper()
