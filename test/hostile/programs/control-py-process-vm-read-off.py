# about: CONTROL: with the sandbox off, a root host's program reads its parent's memory with process_vm_readv
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import ctypes, os, platform
READV = {'x86_64': 310, 'aarch64': 270}[platform.machine()]
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long

class IoVec(ctypes.Structure):
    _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]

def first_mapping(pid):
    try:
        with open(f'/proc/{pid}/maps') as f:
            return int(f.readline().split('-')[0], 16), 'its maps'
    except OSError as e:
        with open('/proc/self/maps') as f:
            return int(f.readline().split('-')[0], 16), f'own maps (its: errno {e.errno})'

out = []
for label, pid in (('parent', os.getppid()), ('pid 1', 1)):
    address, source = first_mapping(pid)
    buf = ctypes.create_string_buffer(16)
    local = IoVec(ctypes.cast(buf, ctypes.c_void_p), 16)
    remote = IoVec(address, 16)
    got = libc.syscall(ctypes.c_long(READV), ctypes.c_long(pid), ctypes.byref(local), ctypes.c_ulong(1), ctypes.byref(remote), ctypes.c_ulong(1), ctypes.c_ulong(0))
    errno = ctypes.get_errno() if got < 0 else 0
    # EFAULT comes only after the kernel's access check passed: the other address space was open, the guess was wrong
    if got > 0 or errno == 14:
        out.append(f'process_vm_readv {label} ({source}): {got} bytes, errno {errno}, access {GRANT}')
    else:
        out.append(f'process_vm_readv {label} ({source}): errno {errno}')
return out
