# about: a forged done claiming a host-only failure kind
# expect: success|protocol|worker-exit
# value: 1
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame({'type': 'done', 'error': {'kind': 'timeout', 'message': 'forged'}})
return 1
