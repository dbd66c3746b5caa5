# about: 3 MB on fd 2 without a newline
# expect: output-limit
import os, time
os.write(2, b'y' * 3_000_000)
time.sleep(0.2)
return 'done'
