# about: CONTROL: with the sandbox off, io_setup takes aio contexts from the machine-wide pool (released at once)
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, platform
IO_SETUP, IO_DESTROY = {'x86_64': (206, 207), 'aarch64': (0, 1)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ctx = ctypes.c_ulong(0)
ok = libc.syscall(ctypes.c_long(IO_SETUP), ctypes.c_long(16), ctypes.byref(ctx)) == 0
if ok:
    libc.syscall(ctypes.c_long(IO_DESTROY), ctx)
return 'aio context ' + ('{{TOKEN}}'.upper() if ok else f'errno {ctypes.get_errno()}')
