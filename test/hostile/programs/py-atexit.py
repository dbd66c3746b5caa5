# about: an atexit handler and os._exit(0)
# expect: worker-exit
import atexit, os
atexit.register(lambda: print('atexit ran'))
os._exit(0)
