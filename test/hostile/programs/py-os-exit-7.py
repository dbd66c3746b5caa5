# about: os._exit(7)
# expect: worker-exit
# message: 7
import os
os._exit(7)
