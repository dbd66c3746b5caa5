# about: machine-wide pool: aio contexts (aio-max-nr, 65 536 for the whole machine); one program took them all and the
#   host's own io_setup(1) failed
# expect: success|exception
# must-not: kernel-granted
import ctypes, platform
IO_SETUP, IO_DESTROY = {'x86_64': (206, 207), 'aarch64': (0, 1)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
contexts = []
for _ in range(64):
    ctx = ctypes.c_ulong(0)
    if libc.syscall(ctypes.c_long(IO_SETUP), ctypes.c_long(1024), ctypes.byref(ctx)) != 0:
        break
    contexts.append(ctx)
errno = ctypes.get_errno()
for ctx in contexts:
    libc.syscall(ctypes.c_long(IO_DESTROY), ctx)
return f'{len(contexts)} aio contexts ' + ('{{TOKEN}}'.upper() if contexts else f'(errno {errno})')
