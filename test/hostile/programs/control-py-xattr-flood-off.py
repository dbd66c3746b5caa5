# about: CONTROL: with the sandbox off, user xattrs are stored on a host tmpfs (/dev/shm; the file is removed)
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import os, tempfile
with tempfile.NamedTemporaryFile(dir='/dev/shm', prefix='ptc-hostile-') as f:
    os.setxattr(f.name, 'user.k', b'v' * 4000)
    return 'xattr ' + '{{TOKEN}}'.upper()
