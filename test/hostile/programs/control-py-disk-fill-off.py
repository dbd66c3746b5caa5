# about: CONTROL: with the sandbox off, what the program writes to its temp dir is on the host disk while it runs
# expect: success
# must: data-on-host-disk
# options: {"sandbox": "off"}
import os, tempfile
base = os.path.join(tempfile.gettempdir(), 'fill-{{TOKEN}}')
os.mkdir(base)
with open(os.path.join(base, '0'), 'wb') as f:
    f.write(b'x' * (8 << 20))
return {'hostSees': await probe.hostLook({})}
