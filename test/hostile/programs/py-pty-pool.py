# about: machine-wide pool: ptys (kernel.pty.max, shared by every devpts instance); one program opened 3 071 of 3 072
#   through its sandbox's own /dev/ptmx, so another run or container got ENOSPC
# expect: success|exception
# must-not: kernel-granted
import os
held, last = [], ''
for path in ('/dev/ptmx', '/dev/pts/ptmx'):
    for _ in range(32):
        try:
            held.append(os.open(path, os.O_RDWR | os.O_NOCTTY))
        except OSError as e:
            last = f'{path}: {e.strerror}'
            break
for fd in held:
    os.close(fd)
return f'{len(held)} ptys ' + ('{{TOKEN}}'.upper() if held else f'({last})')
