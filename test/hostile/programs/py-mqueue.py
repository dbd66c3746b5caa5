# about: POSIX message queues: kernel memory charged to RLIMIT_MSGQUEUE per user, not to any bound of the run
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, platform
MQ_OPEN, MQ_UNLINK = {'x86_64': (240, 241), 'aarch64': (180, 181)}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
name = b'ptc-hostile-%d' % os.getpid()
fd = libc.syscall(MQ_OPEN, name, os.O_CREAT | os.O_RDWR, 0o600, None)
if fd >= 0:
    os.close(fd)
    libc.syscall(MQ_UNLINK, name)
return 'mq_open ' + ('{{TOKEN}}'.upper() if fd >= 0 else f'errno {ctypes.get_errno()}')
