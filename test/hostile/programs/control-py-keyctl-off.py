# about: CONTROL: with the sandbox off, add_key puts a key into the program's process keyring
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, platform
ADD_KEY = {'x86_64': 248, 'aarch64': 217}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
serial = libc.syscall(ctypes.c_long(ADD_KEY), b'user', b'ptc-hostile', b'payload', ctypes.c_long(7), ctypes.c_long(-2))
return 'add_key: serial ' + '{{TOKEN}}'.upper() if serial > 0 else f'add_key: errno {ctypes.get_errno()}'
