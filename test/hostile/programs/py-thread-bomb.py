# about: starts 500 spinning threads
# expect: timeout|exception|worker-exit
import threading
def spin():
    while True:
        pass
for _ in range(500):
    threading.Thread(target=spin, daemon=True).start()
while True:
    pass
