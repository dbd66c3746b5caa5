# about: the descriptors of the processes above the program inside its sandbox (bubblewrap's init, the shim, pid 1):
#   their /proc/<pid>/fd entries reopen whatever they hold (pipes to the host, the seccomp program, a leaked file)
# expect: success|exception
# must-not: kernel-granted
import os
opened = []
for pid in ['1', str(os.getppid())] + [p for p in os.listdir('/proc') if p.isdigit() and int(p) < os.getpid()]:
    try:
        fds = os.listdir(f'/proc/{pid}/fd')
    except OSError:
        continue
    for fd in fds:
        try:
            os.close(os.open(f'/proc/{pid}/fd/{fd}', os.O_RDONLY))
            opened.append(f'{pid}/{fd}')
        except OSError:
            pass
return f'reopened {opened} ' + ('{{TOKEN}}'.upper() if opened else '')
