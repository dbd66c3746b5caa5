# about: a forged call with an out-of-sequence id
# expect: success|protocol|worker-exit
# value: 1
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame({'type': 'call', 'id': 99, 'global': 'tools', 'name': 'echo', 'args': 1})
import asyncio
await asyncio.sleep(0.2)
return 1
