# about: CONTROL: with the sandbox off, the program forks a child and attaches to it with PTRACE_SEIZE
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, os, platform, signal, time
NR = {'x86_64': 101, 'aarch64': 117}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
child = os.fork()
if child == 0:
    time.sleep(5)
    os._exit(0)
ok = libc.syscall(ctypes.c_long(NR), ctypes.c_long(0x4206), ctypes.c_long(child), None, None) == 0
err = ctypes.get_errno()
os.kill(child, signal.SIGKILL)
os.waitpid(child, 0)
return 'seized ' + '{{TOKEN}}'.upper() if ok else f'errno {err}'
