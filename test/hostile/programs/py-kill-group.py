# about: signals its own process group (inside the sandbox the group leader is outside its PID namespace: ProcessLookupError)
# expect: worker-exit | exception
import os, signal
os.killpg(os.getpgrp(), signal.SIGKILL)
