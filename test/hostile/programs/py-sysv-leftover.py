# about: creates SysV objects that would outlive the run: keyed shm (64 MiB, untouched), queue and semaphores, and an IPC_PRIVATE segment, none removed
# expect: success|exception
# must-not: ipc-left
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000
out = []
for name, call in (
    ('shm', lambda: libc.shmget({{OWN_IPC_KEY}}, ctypes.c_size_t(64 << 20), IPC_CREAT | 0o600)),
    ('msg', lambda: libc.msgget({{OWN_IPC_KEY}} + 1, IPC_CREAT | 0o600)),
    ('sem', lambda: libc.semget({{OWN_IPC_KEY}} + 2, 4, IPC_CREAT | 0o600)),
    ('private shm', lambda: libc.shmget(0, ctypes.c_size_t(64 << 20), IPC_CREAT | 0o600)),
):
    ident = call()
    out.append(f'{name}: id {ident}' if ident >= 0 else f'{name}: errno {ctypes.get_errno()}')
return out
