# about: setns(2) into the namespaces of the host process, of pid 1, of its parent and its own, through /proc/<pid>/ns/*
# expect: success|exception
# must-not: kernel-granted
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
out = []
for pid in ('{{HOST_PID}}', '1', str(os.getppid()), 'self'):
    for kind in ('mnt', 'net', 'uts', 'ipc', 'pid', 'cgroup', 'user'):
        try:
            fd = os.open(f'/proc/{pid}/ns/{kind}', os.O_RDONLY)
        except OSError as e:
            out.append(f'{pid}/{kind}: open errno {e.errno}')
            continue
        if libc.setns(fd, 0) == 0:
            out.append(f'{pid}/{kind}: entered ' + '{{TOKEN}}'.upper())
        else:
            out.append(f'{pid}/{kind}: errno {ctypes.get_errno()}')
        os.close(fd)
return out
