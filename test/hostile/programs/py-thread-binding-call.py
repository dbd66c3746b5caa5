# about: a thread calling a binding through its own event loop
# expect: success|exception
import asyncio, threading
result = []
def worker():
    try:
        result.append(asyncio.run(tools.add({'a': 2, 'b': 3})))
    except Exception as e:
        result.append(type(e).__name__)
t = threading.Thread(target=worker)
t.start()
while t.is_alive():
    await asyncio.sleep(0.01)
return result
