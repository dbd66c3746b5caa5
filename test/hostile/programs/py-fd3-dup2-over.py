# about: dup2s /dev/null over the control descriptor
# expect: worker-exit|protocol|exception
import os
fd = os.open('/dev/null', os.O_WRONLY)
os.dup2(fd, 3)
return 1
