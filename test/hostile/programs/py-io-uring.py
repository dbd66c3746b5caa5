# about: io_uring_setup through ctypes: an io_uring instance does its I/O outside the syscall filter's view
# expect: success|exception
# must-not: kernel-granted
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
params = ctypes.create_string_buffer(120)
fd = libc.syscall(ctypes.c_long(425), ctypes.c_long(4), params)
if fd >= 0:
    os.close(fd)
    return 'io_uring_setup: fd ' + '{{TOKEN}}'.upper()
return 'io_uring_setup: errno ' + str(ctypes.get_errno())
