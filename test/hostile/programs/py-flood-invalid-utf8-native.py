# about: invalid UTF-8 written straight to fd 1 and fd 2
# expect: success
# value: "ok"
# logs: �
import os
os.write(1, b'\xff\xfeA\n')
os.write(2, b'\xc3\x28\xed\xa0\x80\n')
return 'ok'
