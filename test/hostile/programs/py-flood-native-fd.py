# about: endless raw writes to fd 1
# expect: output-limit
import os
while True:
    os.write(1, b'native flood line\n')
