# about: CONTROL: with the sandbox off, inotify_init1 makes an instance (closed at once)
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, os, platform
INOTIFY_INIT1 = {'x86_64': 294, 'aarch64': 26}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.syscall(INOTIFY_INIT1, 0)
if fd >= 0:
    os.close(fd)
return 'inotify ' + ('{{TOKEN}}'.upper() if fd >= 0 else f'errno {ctypes.get_errno()}')
