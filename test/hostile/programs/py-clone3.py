# about: clone3(2) through ctypes, plain and with CLONE_VFORK (new processes, not threads): a filter cannot look inside clone3's struct, so it must refuse it whole
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, signal, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = []
for label, flags in (('clone3', 0), ('clone3(CLONE_VFORK)', 0x4000)):
    # struct clone_args (size VER0, 64 bytes): flags, exit_signal SIGCHLD; no CLONE_VM, so the child has its own memory
    args = ctypes.create_string_buffer(struct.pack('QQQQQQQQ', flags, 0, 0, 0, signal.SIGCHLD, 0, 0, 0), 64)
    pid = libc.syscall(ctypes.c_long(435), args, ctypes.c_long(64))
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
        out.append(f'{label}: child ' + '{{TOKEN}}'.upper())
    else:
        out.append(f'{label}: errno {ctypes.get_errno()}')
return out
