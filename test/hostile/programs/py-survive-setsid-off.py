# about: with the sandbox off, a setsid double-forked grandchild in / that ignores SIGTERM/SIGHUP/SIGINT still dies with the run (it would write outside from 0.4 s after the program returns)
# expect: success
# must-not: file-created
# options: {"sandbox": "off"}
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
            open(f'{{OUTSIDE_DIR}}/survivor-{i}', 'w').write('still here')
            time.sleep(0.1)
    os._exit(0)
os.waitpid(pid, 0)
return 'daemonized'
