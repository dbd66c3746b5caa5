# about: CONTROL: with the sandbox off, bpf(BPF_MAP_CREATE) through ctypes returns a map
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import ctypes, os, platform, struct
NR = {'x86_64': 321, 'aarch64': 280}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
attr = ctypes.create_string_buffer(struct.pack('IIII', 2, 4, 4, 1), 128)
fd = libc.syscall(ctypes.c_long(NR), ctypes.c_long(0), attr, ctypes.c_long(128))
if fd >= 0:
    os.close(fd)
    return 'bpf map: fd ' + '{{TOKEN}}'.upper()
return f'bpf: errno {ctypes.get_errno()}'
