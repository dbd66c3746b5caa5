# about: CONTROL: with the sandbox off, a setsid double-forked grandchild in / acts on the host while the program still runs (what the sandboxed attempt would do)
# expect: success
# must: file-created
# options: {"sandbox": "off"}
import os, signal, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        os.chdir('/')
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        open('{{OUTSIDE_DIR}}/grandchild', 'w').write('here')
    os._exit(0)
os.waitpid(pid, 0)
time.sleep(0.5)
return 'daemonized'
