# about: the kernel keyring through ctypes: add_key to its process keyring, keyctl for the session keyring's id, request_key
# expect: success|exception
# must-not: kernel-granted
import ctypes, platform
ADD_KEY, REQUEST_KEY, KEYCTL = {'x86_64': (248, 249, 250), 'aarch64': (217, 218, 219)}[platform.machine()]
GRANT = '{{TOKEN}}'.upper()
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
out = []
serial = libc.syscall(ctypes.c_long(ADD_KEY), b'user', b'ptc-hostile', b'payload', ctypes.c_long(7), ctypes.c_long(-2))
out.append('add_key: serial ' + GRANT if serial > 0 else f'add_key: errno {ctypes.get_errno()}')
ring = libc.syscall(ctypes.c_long(KEYCTL), ctypes.c_long(0), ctypes.c_long(-3), ctypes.c_long(0))
out.append('keyctl: session keyring ' + GRANT if ring > 0 else f'keyctl: errno {ctypes.get_errno()}')
found = libc.syscall(ctypes.c_long(REQUEST_KEY), b'user', b'ptc-hostile-absent', None, ctypes.c_long(0))
out.append('request_key: ' + GRANT if found > 0 else f'request_key: errno {ctypes.get_errno()}')
return out
