# about: starts a detached new-session child that would write a file later
# expect: success|exception
# must-not: file-created
import subprocess
subprocess.Popen(['/bin/sh', '-c', 'sleep 1; echo late > {{OUTSIDE_DIR}}/late-write'], start_new_session=True)
return 'left behind'
