# about: learns who is at the other end of its bindings connection (SO_PEERCRED on every socket descriptor it holds: the bindings host, a process outside the sandbox), then tries to reach that process by the pid it was told: a signal, its /proc files, a pidfd
# expect: success|exception
# must-not: kernel-granted
import ctypes, os, socket, struct
GRANT = '{{TOKEN}}'.upper()
seen, reached = [], []
for name in os.listdir('/proc/self/fd'):
    fd = int(name)
    try:
        s = socket.socket(fileno=os.dup(fd))
    except OSError:
        continue
    try:
        pid, uid, gid = struct.unpack('3i', s.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
    except OSError:
        s.close()
        continue
    s.close()
    seen.append((fd, pid, uid))
    # a peer outside this pid namespace reads as pid 0: nothing to aim at
    if pid <= 1 or pid == os.getpid():
        continue
    try:
        os.kill(pid, 0)
        reached.append(f'signal {pid}')
    except OSError:
        pass
    for what in ('environ', 'cmdline', 'mem'):
        try:
            with open(f'/proc/{pid}/{what}', 'rb') as f:
                if f.read(64):
                    reached.append(f'{what} of {pid}')
        except OSError:
            pass
    try:
        pidfd = ctypes.CDLL(None, use_errno=True).syscall(434, pid, 0)
        if pidfd >= 0:
            reached.append(f'pidfd of {pid}')
            os.close(pidfd)
    except OSError:
        pass
return f'peers {seen}; reached {reached}' + (f', {GRANT}' if reached else '')
