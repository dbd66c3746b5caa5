# about: a directory chain deeper than PATH_MAX in its temp dir with 32 MiB at the bottom: nothing of it may be on the host disk, during the run or after it (a host cleanup that gives up on long paths leaves it behind)
# expect: success|exception
# must-not: data-on-host-disk
import os, tempfile
top = os.path.join(tempfile.gettempdir(), 'deep-{{TOKEN}}')
os.mkdir(top)
fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
name = 'd' * 250
depth, error = 0, None
try:
    for _ in range(40):
        os.mkdir(name, dir_fd=fd)
        inner = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = inner
        depth += 1
    data = os.open('data', os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
    for _ in range(8):
        os.write(data, b'x' * (4 << 20))
    os.close(data)
except OSError as e:
    error = e.errno
return {'depth': depth, 'pathLength': depth * 251, 'errno': error, 'hostSees': await probe.hostLook({})}
