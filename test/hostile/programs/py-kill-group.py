# about: signals its own process group
# expect: worker-exit
import os, signal
os.killpg(os.getpgrp(), signal.SIGKILL)
