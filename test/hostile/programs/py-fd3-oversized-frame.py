# about: a 136 MB control line without a newline (over the 128 MiB frame cap)
# expect: worker-exit|protocol|exception
# options: {"timeoutMs": 60000}
import os
chunk = b'x' * (1 << 20)
for _ in range(130):
    os.write(3, chunk)
while True:
    pass
