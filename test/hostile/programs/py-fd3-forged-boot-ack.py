# about: a forged second boot-ack
# expect: success|protocol
# value: 3
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame({'type': 'boot-ack'})
return await tools.add({'a': 1, 'b': 2})
