# about: bpf(BPF_MAP_CREATE) through ctypes: eBPF is kernel code a program must not reach
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform, struct
NR = {'x86_64': 321, 'aarch64': 280}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
# map_type ARRAY, key_size 4, value_size 4, max_entries 1
attr = ctypes.create_string_buffer(struct.pack('IIII', 2, 4, 4, 1), 128)
fd = libc.syscall(ctypes.c_long(NR), ctypes.c_long(0), attr, ctypes.c_long(128))
if fd >= 0:
    os.close(fd)
    return 'bpf map: fd ' + '{{TOKEN}}'.upper()
return f'bpf: errno {ctypes.get_errno()}'
