# about: os.abort()
# expect: worker-exit
import os
os.abort()
