# about: double-forks a setsid daemon that would write a file later
# expect: success|exception
# must-not: file-created
import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    if os.fork() == 0:
        time.sleep(1)
        open('{{OUTSIDE_DIR}}/daemon-write', 'w').write('late')
    os._exit(0)
os.waitpid(pid, 0)
return 'daemonized'
