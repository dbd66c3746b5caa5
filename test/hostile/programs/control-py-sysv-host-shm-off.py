# about: CONTROL: with the sandbox off, the host's root-only SysV shared memory segment is readable by key
# expect: success
# must: secret-leaked
# requires: host-python
# options: {"sandbox": "off"}
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
shmid = libc.shmget({{SHM_KEY}}, 0, 0)
addr = libc.shmat(shmid, None, 0o10000)
return ctypes.string_at(addr, 64).split(b'\0')[0].decode('latin1')
