# about: garbage lines on the control descriptor, then a return
# expect: success|protocol|worker-exit
# value: 1
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame(b'garbage garbage')
frame(b'\x00\x01\x02')
frame(b'[1,2,3]')
frame(b'{"type": 42}')
return 1
