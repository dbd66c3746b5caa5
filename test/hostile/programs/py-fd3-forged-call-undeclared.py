# about: a forged call to an undeclared binding
# expect: success|protocol|worker-exit
# value: 1
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame({'type': 'call', 'id': 0, 'global': 'tools', 'name': 'rm-rf', 'args': {}})
import asyncio
await asyncio.sleep(0.2)
return 1
