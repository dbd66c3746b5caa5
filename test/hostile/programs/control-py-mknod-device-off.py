# about: CONTROL: with the sandbox off, the program makes a null device node in its temp dir and opens it
# expect: success
# must: kernel-granted
# requires: root
# options: {"sandbox": "off"}
import os, stat, tempfile
node = os.path.join(tempfile.gettempdir(), 'null')
os.mknod(node, stat.S_IFCHR | 0o600, os.makedev(1, 3))
os.close(os.open(node, os.O_WRONLY))
return 'opened ' + '{{TOKEN}}'.upper()
