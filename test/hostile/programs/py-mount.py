# about: mount(2) of a tmpfs, directly and after unshare(CLONE_NEWNS), and the new mount API (fsopen): all must be refused
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform, tempfile
NR_UNSHARE, NR_FSOPEN = {'x86_64': (272, 430), 'aarch64': (97, 430)}[platform.machine()]
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
target = os.path.join(tempfile.gettempdir(), 'mnt')
os.makedirs(target, exist_ok=True)
out = []
def mount(label):
    if libc.mount(b'tmpfs', target.encode(), b'tmpfs', 0, b'size=1m') == 0:
        out.append(label + ': mounted ' + GRANT)
        libc.umount2(target.encode(), 2)
    else:
        out.append(f'{label}: errno {ctypes.get_errno()}')
mount('mount')
fd = libc.syscall(ctypes.c_long(NR_FSOPEN), b'tmpfs', ctypes.c_long(0))
out.append('fsopen: fd ' + GRANT if fd >= 0 else f'fsopen: errno {ctypes.get_errno()}')
if libc.syscall(ctypes.c_long(NR_UNSHARE), ctypes.c_long(0x20000)) == 0:
    out.append('unshare: done')
    mount('mount after unshare')
return out
