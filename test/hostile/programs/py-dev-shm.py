# about: POSIX shared memory (shm_open, no unlink) and a plain file in /dev/shm: on the host both outlive the run in memory nobody frees
# expect: success|exception
# must-not: data-on-host-disk
import os
out = []
try:
    import _posixshmem
    fd = _posixshmem.shm_open('/ptc-{{TOKEN}}', os.O_CREAT | os.O_RDWR, 0o600)
    os.ftruncate(fd, 1 << 20)
    out.append('shm_open: created')
except OSError as e:
    out.append(f'shm_open: errno {e.errno}')
try:
    open('/dev/shm/ptc-{{TOKEN}}-file', 'wb').write(b'x' * (1 << 20))
    out.append('/dev/shm file: written')
except OSError as e:
    out.append(f'/dev/shm file: errno {e.errno}')
out.append(await probe.hostLook({}))
return out
