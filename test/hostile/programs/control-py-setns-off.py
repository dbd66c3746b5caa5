# about: CONTROL: with the sandbox off, setns(2) into the host process's mount and UTS namespaces succeeds
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
out = []
for kind in ('mnt', 'uts'):
    fd = os.open(f'/proc/{{HOST_PID}}/ns/{kind}', os.O_RDONLY)
    out.append(kind + (': entered ' + '{{TOKEN}}'.upper() if libc.setns(fd, 0) == 0 else f': errno {ctypes.get_errno()}'))
    os.close(fd)
return out
