# about: a task that fails and is never awaited
# expect: success
# value: 1
import asyncio
async def boom():
    raise ValueError('never retrieved')
asyncio.ensure_future(boom())
await asyncio.sleep(0.05)
return 1
