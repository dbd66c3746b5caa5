# about: setsid + double fork, the grandchild in / ignoring SIGTERM/SIGHUP/SIGINT, writing outside from 0.4 s after the program returns
# expect: success|exception
# must-not: file-created
import os, signal, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        os.chdir('/')
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        time.sleep(0.4)
        for i in range(50):
            try:
                open(f'{{OUTSIDE_DIR}}/survivor-{i}', 'w').write('still here')
            except OSError:
                pass
            time.sleep(0.1)
    os._exit(0)
os.waitpid(pid, 0)
return 'daemonized'
