# about: perf_event_open through ctypes (a software CPU clock on itself): performance counters are a side channel and a kernel attack surface
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform, struct
NR = {'x86_64': 298, 'aarch64': 241}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
# type SOFTWARE, size 128, config CPU_CLOCK, sample period 0, sample type 0, read format 0, flags: disabled, exclude_kernel, exclude_hv
attr = ctypes.create_string_buffer(struct.pack('IIQQQQQ', 1, 128, 0, 0, 0, 0, 1 | (1 << 5) | (1 << 6)), 128)
fd = libc.syscall(ctypes.c_long(NR), attr, ctypes.c_long(0), ctypes.c_long(-1), ctypes.c_long(-1), ctypes.c_long(0))
if fd >= 0:
    os.close(fd)
    return 'perf_event_open: fd ' + '{{TOKEN}}'.upper()
return f'perf_event_open: errno {ctypes.get_errno()}'
