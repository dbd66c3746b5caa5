# about: a forged done whose value is over the output cap
# expect: output-limit|protocol|worker-exit
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame({'type': 'done', 'value': 'v' * 2_000_000})
while True:
    pass
