# about: CONTROL: with the sandbox off, clone3(2) through ctypes makes a child process
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, os, signal, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
args = ctypes.create_string_buffer(struct.pack('QQQQQQQQ', 0, 0, 0, 0, signal.SIGCHLD, 0, 0, 0), 64)
pid = libc.syscall(ctypes.c_long(435), args, ctypes.c_long(64))
if pid == 0:
    os._exit(0)
if pid > 0:
    os.waitpid(pid, 0)
    return 'clone3: child ' + '{{TOKEN}}'.upper()
return f'clone3: errno {ctypes.get_errno()}'
