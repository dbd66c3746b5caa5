# about: forks 50 sleeping children and returns: the whole group dies with the run
# expect: success|exception
import os, time
for i in range(50):
    pid = os.fork()
    if pid == 0:
        time.sleep(30)
        os._exit(0)
return 'forked'
