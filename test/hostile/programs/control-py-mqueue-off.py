# about: CONTROL: with the sandbox off, mq_open makes a POSIX message queue (removed at once)
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import ctypes, os, platform
MQ_OPEN, MQ_UNLINK = {'x86_64': (240, 241), 'aarch64': (180, 181)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
name = b'ptc-hostile-%d' % os.getpid()
fd = libc.syscall(MQ_OPEN, name, os.O_CREAT | os.O_RDWR, 0o600, None)
if fd >= 0:
    os.close(fd)
    libc.syscall(MQ_UNLINK, name)
return 'mq_open ' + ('{{TOKEN}}'.upper() if fd >= 0 else f'errno {ctypes.get_errno()}')
