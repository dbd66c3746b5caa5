# about: raw socket(2) through ctypes for every address family but AF_UNIX, AF_INET and AF_INET6, in every socket type
# expect: success|exception
# must-not: kernel-granted
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
granted = []
for family in range(1, 46):
    if family in (1, 2, 10):
        continue
    for kind in (1, 2, 3, 5):
        fd = libc.socket(family, kind, 0)
        if fd >= 0:
            os.close(fd)
            granted.append(f'{family}/{kind}')
return ['created ' + ' '.join(granted) + ' ' + '{{TOKEN}}'.upper()] if granted else 'none created'
