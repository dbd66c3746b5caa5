# about: 100 000 one-character writes then a newline form one entry
# expect: success
# value: "ok"
# logs: ^x{100000}$
import sys
for _ in range(100_000):
    sys.stdout.write('x')
sys.stdout.write('\n')
return 'ok'
