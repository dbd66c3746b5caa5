# about: a hot loop while a binding call is pending
# expect: timeout
import asyncio
asyncio.ensure_future(tools.never({}))
await asyncio.sleep(0)
while True:
    pass
