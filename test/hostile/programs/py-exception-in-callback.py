# about: an exception raised in a loop callback
# expect: success|exception
import asyncio
loop = asyncio.get_running_loop()
loop.call_soon(lambda: 1 / 0)
await asyncio.sleep(0.05)
return 1
