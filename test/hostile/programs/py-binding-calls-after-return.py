# about: leaves 100 calls in flight and returns
# expect: success
# value: "returned"
import asyncio
for _ in range(100):
    asyncio.ensure_future(tools.slow({'ms': 300}))
await asyncio.sleep(0)
return 'returned'
