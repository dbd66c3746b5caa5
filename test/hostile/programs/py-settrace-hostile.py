# about: installs a trace and profile function that raise everywhere
# expect: success|exception
import sys, threading
def boom(*a):
    raise RuntimeError('traced')
threading.settrace(boom)
sys.setprofile(boom)
return 1
