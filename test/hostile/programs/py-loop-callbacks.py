# about: an endless call_soon chain starving the loop
# expect: timeout
import asyncio
loop = asyncio.get_running_loop()
def spin():
    loop.call_soon(spin)
spin()
await asyncio.Future()
