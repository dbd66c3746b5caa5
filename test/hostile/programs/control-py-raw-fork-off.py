# about: CONTROL: with the sandbox off, clone(SIGCHLD) through a raw syscall makes a child process
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, os, platform, signal
CLONE = {'x86_64': 56, 'aarch64': 220}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
pid = libc.syscall(ctypes.c_long(CLONE), ctypes.c_long(signal.SIGCHLD), None, None, None, None)
if pid == 0:
    os._exit(0)
if pid < 0:
    return f'errno {ctypes.get_errno()}'
os.waitpid(pid, 0)
return 'child ' + '{{TOKEN}}'.upper()
