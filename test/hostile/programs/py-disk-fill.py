# about: fills its temp dir with 320 MiB (a few MiB at a time, in 16 MiB files): the data must never be on the host disk, and the fill must stop at the temp dir's cap
# expect: success|exception
# must-not: data-on-host-disk
import os, tempfile
base = os.path.join(tempfile.gettempdir(), 'fill-{{TOKEN}}')
os.mkdir(base)
chunk = b'x' * (4 << 20)
written, error = 0, None
try:
    for i in range(20):
        with open(os.path.join(base, str(i)), 'wb') as f:
            for _ in range(4):
                f.write(chunk)
                written += 4
except OSError as e:
    error = e.errno
return {'writtenMiB': written, 'errno': error, 'hostSees': await probe.hostLook({})}
