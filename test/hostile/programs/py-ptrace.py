# about: ptrace(PTRACE_SEIZE) of another host process, of its parent, and of a child it forks
# expect: success|exception
# must-not: kernel-granted, victim-touched
import ctypes, os, platform, signal, time
NR = {'x86_64': 101, 'aarch64': 117}[platform.machine()]
SEIZE = 0x4206
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = []
def seize(label, pid):
    if libc.syscall(ctypes.c_long(NR), ctypes.c_long(SEIZE), ctypes.c_long(pid), None, None) == 0:
        out.append(f'{label}: seized ' + '{{TOKEN}}'.upper())
    else:
        out.append(f'{label}: errno {ctypes.get_errno()}')
seize('victim', {{VICTIM_PID}})
if os.getppid() > 0:
    seize('parent', os.getppid())
try:
    child = os.fork()
    if child == 0:
        time.sleep(5)
        os._exit(0)
    seize('child', child)
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
except OSError as e:
    out.append(f'fork: errno {e.errno}')
# the victim is sampled by the host while the tracer lives
time.sleep(0.3)
return out
