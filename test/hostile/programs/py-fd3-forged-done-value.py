# about: a forged done with a value is just a way to return that value
# expect: success|protocol
# value: "forged"
import os
def frame(obj):
    os.write(3, (obj if isinstance(obj, bytes) else __import__('json').dumps(obj).encode()) + b'\n')
frame({'type': 'done', 'value': 'forged'})
while True:
    pass
