# about: an infinite loop that yields to the event loop every turn
# expect: timeout
import asyncio
while True:
    await asyncio.sleep(0)
