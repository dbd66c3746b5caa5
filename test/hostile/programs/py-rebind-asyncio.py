# about: rebinds asyncio.Future, get_running_loop and gather
# expect: success
# value: [1,2]
import asyncio
v = await tools.echo([1, 2])
asyncio.Future = None
asyncio.get_running_loop = None
asyncio.get_event_loop = None
asyncio.gather = None
asyncio.ensure_future = None
return v
