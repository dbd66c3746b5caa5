# about: a new process through raw syscalls, past any libc or os-module check: fork(2) where the architecture has it, and clone(SIGCHLD)
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform, signal
FORK, CLONE = {'x86_64': (57, 56), 'aarch64': (None, 220)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = []
def attempt(label, call):
    pid = call()
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
        out.append(f'{label}: child ' + '{{TOKEN}}'.upper())
    else:
        out.append(f'{label}: errno {ctypes.get_errno()}')
if FORK is not None:
    attempt('fork', lambda: libc.syscall(ctypes.c_long(FORK)))
attempt('clone(SIGCHLD)', lambda: libc.syscall(ctypes.c_long(CLONE), ctypes.c_long(signal.SIGCHLD), None, None, None, None))
return out
