# about: 10 000 concurrent calls through asyncio.gather
# expect: success
# value: 50005000
# calls: 10000
# options: {"timeoutMs": 60000}
import asyncio
all_ = await asyncio.gather(*(tools.add({'a': i, 'b': 1}) for i in range(10_000)))
return sum(all_)
