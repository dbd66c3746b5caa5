# about: CONTROL: with the sandbox off, a directory chain deeper than PATH_MAX in the temp dir is on the host disk while the program runs
# expect: success
# must: data-on-host-disk
# options: {"sandbox": "off"}
import os, tempfile
top = os.path.join(tempfile.gettempdir(), 'deep-{{TOKEN}}')
os.mkdir(top)
fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
for _ in range(20):
    os.mkdir('d' * 250, dir_fd=fd)
    inner = os.open('d' * 250, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
    os.close(fd)
    fd = inner
data = os.open('data', os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
os.write(data, b'x' * (1 << 20))
os.close(data)
return {'hostSees': await probe.hostLook({})}
