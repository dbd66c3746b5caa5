# about: a control frame that is not UTF-8
# expect: success|protocol|worker-exit
# value: 1
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame(b'{"type":"log","text":"\xff\xfe"}')
return 1
