# about: CONTROL: with the sandbox off, a setsid double-forked grandchild in / acts on the host while the program still runs (what the sandboxed attempt would do)
# expect: success
# must: file-created
# options: {"sandbox": "off", "timeoutMs": 60000}
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
# until the grandchild has written (a loaded machine can delay it past any fixed sleep)
for _ in range(300):
    if os.path.exists('{{OUTSIDE_DIR}}/grandchild'):
        break
    time.sleep(0.1)
return 'daemonized'
