# about: attaches the host's root-only SysV shared memory segment by key and reads the secret in it
# expect: success|exception
# must-not: secret-leaked
# requires: host-python
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
shmid = libc.shmget({{SHM_KEY}}, 0, 0)
if shmid < 0:
    return f'shmget: errno {ctypes.get_errno()}'
addr = libc.shmat(shmid, None, 0o10000)
if addr in (None, ctypes.c_void_p(-1).value):
    return f'shmat: errno {ctypes.get_errno()}'
return ctypes.string_at(addr, 64).split(b'\0')[0].decode('latin1')
