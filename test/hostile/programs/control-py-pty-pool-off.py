# about: CONTROL: with the sandbox off, /dev/ptmx opens a pty from the machine-wide pool (closed at once)
# expect: success
# must: kernel-granted
# options: {"sandbox": "off"}
import os
fd = os.open('/dev/ptmx', os.O_RDWR | os.O_NOCTTY)
os.close(fd)
return 'pty ' + '{{TOKEN}}'.upper()
