# about: CONTROL: with the sandbox off, the program holds root's capabilities: chown of its own file to another user succeeds
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import os, tempfile
os.chown(tempfile.mkstemp()[1], 65534, 65534)
return 'chown: done ' + '{{TOKEN}}'.upper()
