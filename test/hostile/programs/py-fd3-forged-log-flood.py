# about: forged log frames past the output cap are metered by the host
# expect: output-limit|protocol|worker-exit
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
line = __import__('json').dumps({'type': 'log', 'text': 'F' * 10_000}).encode() + b'\n'
for _ in range(300):
    os.write(3, line)
while True:
    pass
