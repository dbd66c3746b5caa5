# about: user xattrs on the tmpfs are kernel memory its size cap does not count (600 MB were stored with zero blocks
#   used under --tmp-mb 16)
# expect: success|exception
# must-not: kernel-granted
import os
open('/tmp/x', 'w').close()
stored = 0
try:
    for i in range(256):
        os.setxattr('/tmp/x', f'user.k{i}', b'v' * 4000)
        stored += 1
except OSError as e:
    return f'{stored} xattrs ({e.strerror})'
return f'{stored} xattrs ' + '{{TOKEN}}'.upper()
