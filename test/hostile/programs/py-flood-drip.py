# about: two million one-character writes
# expect: output-limit
import sys
for _ in range(2_000_000):
    sys.stdout.write('x')
return 'done'
