# about: callbacks, tasks and threads scheduled to log or call a binding after the return
# expect: success
# value: "early"
import asyncio, threading, time
loop = asyncio.get_running_loop()
loop.call_later(0.02, print, 'late log')
asyncio.ensure_future(tools.echo('late call'))
def later():
    time.sleep(0.05)
    print('thread log')
threading.Thread(target=later, daemon=True).start()
return 'early'
