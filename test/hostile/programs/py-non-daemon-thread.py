# about: a non-daemon thread that never ends does not keep the run open after the return
# expect: success
# value: 1
import threading, time
def forever():
    while True:
        time.sleep(0.01)
threading.Thread(target=forever).start()
return 1
