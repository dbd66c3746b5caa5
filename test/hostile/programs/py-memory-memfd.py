# about: memory no limit counts: memfd files written through write(), 600 MB under a 512 MB memoryMb, never mapped
# expect: success|exception
# must-not: kernel-granted
# options: {"memoryMb": 512, "timeoutMs": 60000}
import os
GRANT = '{{TOKEN}}'.upper()
chunk = b'x' * (1 << 20)
held = 0
try:
    for i in range(3):
        fd = os.memfd_create(f'hold{i}')
        for _ in range(200):
            os.write(fd, chunk)
            held += 1
except OSError as e:
    return f'refused after {held} MB: {e}'
return f'{held} MB in memfds past memoryMb 512' + (f', {GRANT}' if held > 512 else '')
