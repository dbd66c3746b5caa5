# about: CONTROL: with the sandbox off, keyed SysV objects the program creates are still in the host's IPC namespace after the run
# expect: success
# must: ipc-left
# options: {"sandbox": "off"}
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000
return [libc.shmget({{OWN_IPC_KEY}}, ctypes.c_size_t(1 << 20), IPC_CREAT | 0o600), libc.msgget({{OWN_IPC_KEY}} + 1, IPC_CREAT | 0o600), libc.semget({{OWN_IPC_KEY}} + 2, 1, IPC_CREAT | 0o600)]
