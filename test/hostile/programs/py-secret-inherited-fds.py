# about: reads every descriptor it inherited
# expect: success|exception
# must-not: secret-leaked
import os
out = []
for fd in range(4, 64):
    try:
        out.append(os.readlink(f'/proc/self/fd/{fd}'))
        out.append(os.read(fd, 4096).decode('utf-8', 'replace'))
    except Exception:
        pass
return out
