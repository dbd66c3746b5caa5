# about: makes its own device nodes (the null device, and the block device under its root filesystem) in its temp dir and opens them
# expect: success|exception
# must-not: kernel-granted
import os, stat, tempfile
GRANT = '{{TOKEN}}'.upper()
out = []
tmp = tempfile.gettempdir()
for name, kind, dev in (('null', stat.S_IFCHR, os.makedev(1, 3)), ('disk', stat.S_IFBLK, os.stat('/').st_dev)):
    node = os.path.join(tmp, name)
    try:
        os.mknod(node, kind | 0o600, dev)
        out.append(name + ': made')
        fd = os.open(node, os.O_RDONLY)
        os.close(fd)
        out.append(name + ': opened ' + GRANT)
    except OSError as e:
        out.append(f'{name}: {e.errno}')
return out
