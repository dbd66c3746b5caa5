# about: awaits a future nobody resolves
# expect: timeout
import asyncio
await asyncio.get_running_loop().create_future()
