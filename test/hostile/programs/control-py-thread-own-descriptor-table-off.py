# about: CONTROL: with the sandbox off, a thread without CLONE_FILES (its own descriptor table) is made
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
# requires: x86-64
import ctypes, signal
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
# loop: clone(CLONE_VM|CLONE_SIGHAND|CLONE_THREAD, sp=0), no CLONE_FILES; each task: pause() forever
code = bytes.fromhex('4989f9b838000000bf0009010031f631d24531d20f054885c074087805' '49ffc975e1c3b8220000000f05ebf7')
page = libc.mmap(None, 4096, 7, 0x22, -1, 0)
ctypes.memmove(page, code, len(code))
make = ctypes.CFUNCTYPE(ctypes.c_long, ctypes.c_long)(page)
mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
last = make(1)
signal.pthread_sigmask(signal.SIG_SETMASK, mask)
return f'clone without CLONE_FILES: {last}' + (f' {GRANT}' if last >= 0 else '')
