# about: sends itself SIGKILL
# expect: worker-exit
# message: SIGKILL|9|signal
import os, signal
os.kill(os.getpid(), signal.SIGKILL)
