# about: CONTROL: with the sandbox off, SysV shared memory segments attached, written and detached, 600 MB under a 512 MB memoryMb (the attack is real)
# expect: success
# must: kernel-granted
# options: {"memoryMb": 512, "sandbox": "off", "timeoutMs": 60000}
import ctypes
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
# attach, touch, detach: the pages stay in the segment, outside the address space RLIMIT_AS counts
held, ids = 0, []
for _ in range(3):
    sid = libc.shmget(0, 200 << 20, 0o1600)
    if sid < 0:
        return f'shmget refused, errno {ctypes.get_errno()}, {held} MB held'
    addr = libc.shmat(sid, None, 0)
    if addr is None or addr == ctypes.c_void_p(-1).value:
        return f'shmat refused, errno {ctypes.get_errno()}, {held} MB held'
    ids.append(sid)
    ctypes.memset(addr, 1, 200 << 20)
    libc.shmdt(addr)
    held += 200
# all 600 MB were held at once; removed now (IPC_RMID), since with the sandbox off they would outlive the run
for sid in ids:
    libc.shmctl(sid, 0, None)
return f'{held} MB of SysV shared memory held past memoryMb 512' + (f', {GRANT}' if held > 512 else '')
